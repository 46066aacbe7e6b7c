// Game list and viewer. Every position, lap and capture was computed by the
// engine when the report was made; this script only displays them.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var games = data.games;
  var byId = {};
  games.forEach(function (g) { byId[g.id] = g; });
  var $ = function (id) { return document.getElementById(id); };
  // Control and bidirectional characters written out, as the text report
  // and the page's own escaping do (names come from results files anyone
  // may have written): shown raw, they would reorder what follows them.
  var hidden = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
  var visible = function (text) {
    return String(text).replace(hidden, function (c) { return "\\u{" + c.charCodeAt(0).toString(16) + "}"; });
  };
  var el = function (tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = visible(text);
    return e;
  };

  // ---- game list with filters ----
  var bots = {}, terms = {};
  games.forEach(function (g) { bots[g.south] = 1; bots[g.north] = 1; terms[g.termination] = 1; });
  Object.keys(bots).sort().forEach(function (b) { $("filter-bot").appendChild(new Option(visible(b), b)); });
  Object.keys(terms).sort().forEach(function (t) { $("filter-termination").appendChild(new Option(visible(t.replace(/_/g, " ")), t)); });

  function outcomeFor(g, bot) {
    if (g.result === "1/2-1/2") return "draw";
    var southWon = g.result === "1-0";
    return (g.south === bot) === southWon ? "win" : "loss";
  }

  function renderList() {
    var bot = $("filter-bot").value, res = $("filter-result").value, term = $("filter-termination").value;
    var body = $("game-list").tBodies[0];
    body.textContent = "";
    var shown = 0;
    games.forEach(function (g) {
      if (bot && g.south !== bot && g.north !== bot) return;
      if (term && g.termination !== term) return;
      if (res) {
        if (res === "draw" ? g.result !== "1/2-1/2" : !bot ? g.result === "1/2-1/2" : outcomeFor(g, bot) !== res) return;
      }
      shown++;
      var tr = el("tr");
      tr.dataset.game = g.id;
      [g.id, g.south, g.north, g.result, g.score ? g.score[0] + "–" + g.score[1] : "", g.termination.replace(/_/g, " "), String(g.plies.length)]
        .forEach(function (t, i) {
          var td = el("td", i === 1 || i === 2 ? "name" : "", t);
          if (i === 5 && g.forfeit) { td.className = "result-forfeit"; td.title = (g.forfeit + ": " + (g.detail || "")); }
          tr.appendChild(td);
        });
      tr.addEventListener("click", function () { location.hash = "game=" + encodeURIComponent(g.id) + "&ply=0"; });
      if (current && current.id === g.id) tr.className = "current";
      body.appendChild(tr);
    });
    $("game-count").textContent = shown + " of " + games.length + " games";
  }
  ["filter-bot", "filter-result", "filter-termination"].forEach(function (id) { $(id).addEventListener("change", renderList); });

  // ---- viewer ----
  var current = null, ply = 0;

  function sideName(g, side) { return side === "south" ? g.south : g.north; }

  function state(g, n) {
    if (n === 0) return { pits: g.pits, captured: g.captured, toMove: g.side, move: null };
    var p = g.plies[n - 1];
    var next = n < g.plies.length ? g.plies[n].side : (p.side === "south" ? "north" : "south");
    return { pits: p.pits, captured: p.captured, toMove: next, move: p };
  }

  function lastClock(g, n, side) {
    for (var i = n - 1; i >= 0; i--) {
      var p = g.plies[i];
      if (p.side === side && p.clock_ms !== undefined && p.clock_ms !== null) return p.clock_ms;
    }
    return null;
  }

  function pitEl(i, seeds, move) {
    var d = el("div", "pit");
    d.dataset.pit = String(i);
    d.appendChild(el("span", "seeds", String(seeds)));
    d.appendChild(el("span", "num", String(i)));
    if (move) {
      move.laps.forEach(function (l) { if (l[0] === i) d.classList.add("from"); });
      if (move.laps.length && move.laps[move.laps.length - 1][2] === i) d.classList.add("last");
      move.captures.forEach(function (c) { if (c[0] === i) d.classList.add("captured"); });
      var tips = [];
      move.laps.forEach(function (l, k) { if (l[0] === i) tips.push((k ? "relay: " : "sown: ") + l[1] + " seeds lifted"); });
      move.captures.forEach(function (c) { if (c[0] === i) tips.push("captured " + c[1]); });
      if (tips.length) d.title = tips.join(", ");
    }
    return d;
  }

  function describeMove(g, p) {
    var who = p.side === "south" ? "South" : "North";
    var s = who + " (" + sideName(g, p.side) + ") ";
    if (p.move === "pass") return s + (p.by === "forced" ? "must pass" : "passes");
    s += (p.by === "opening" ? "opening move " : "plays ") + p.move + ": ";
    s += p.laps.map(function (l, k) { return (k ? "relay " : "sow ") + l[1] + " from " + l[0] + " → " + l[2]; }).join("; ");
    if (p.captures.length) s += "; captures " + p.captures.map(function (c) { return c[1] + " from " + c[0]; }).join(", ");
    return s;
  }

  function fmtMs(x) { return x === null || x === undefined ? "–" : (x >= 10000 ? (x / 1000).toFixed(1) + " s" : Math.round(x) + " ms"); }

  function accText(a) {
    if (!a) return null;
    var sign = function (v) { return (v > 0 ? "+" : "") + v; };
    var t = a.loss === 0 ? "perfect move (value " + sign(a.value) + ")" :
      "loses " + a.loss + " seed" + (a.loss === 1 ? "" : "s") + ": played " + a.played + " (" + sign(a.value) + "), best " + a.best.join(" or ") + " (" + sign(a.best_value) + ")";
    if (a.blunder) t = "BLUNDER: " + a.could_reach + " → " + a.reaches + "; " + t;
    return t;
  }

  function render() {
    var g = current, v = $("viewer");
    v.hidden = false;
    v.textContent = "";
    var st = state(g, ply);
    var head = el("h3", "", g.id + ": " + g.south + " (South) vs " + g.north + " (North), " + g.result);
    v.appendChild(head);
    var meta = el("p", "small", g.termination.replace(/_/g, " ") + (g.detail ? ": " + g.detail : "") +
      (g.time_control && g.time_control[0] ? " · time control " + g.time_control.join(" / ") : ""));
    v.appendChild(meta);
    if (g.problem) v.appendChild(el("p", "problem", g.problem));

    var board = el("div", "board");
    board.id = "board";
    board.dataset.game = g.id;
    board.dataset.ply = String(ply);
    var nl = el("div", "side-label" + (st.toMove === "north" ? " tomove" : ""), "North: " + g.north + " · captured " + st.captured[1] + " · clock " + fmtMs(lastClock(g, ply, "north")));
    var north = el("div", "row north"), south = el("div", "row south");
    for (var i = 11; i >= 6; i--) north.appendChild(pitEl(i, st.pits[i], st.move));
    for (var j = 0; j <= 5; j++) south.appendChild(pitEl(j, st.pits[j], st.move));
    var sl = el("div", "side-label" + (st.toMove === "south" ? " tomove" : ""), "South: " + g.south + " · captured " + st.captured[0] + " · clock " + fmtMs(lastClock(g, ply, "south")));
    board.appendChild(nl); board.appendChild(north); board.appendChild(south); board.appendChild(sl);
    v.appendChild(board);

    var controls = el("div", "controls");
    [["«", "first", function () { go(0); }], ["◀", "previous", function () { go(ply - 1); }],
     ["▶", "next", function () { go(ply + 1); }], ["»", "last", function () { go(g.plies.length); }]]
      .forEach(function (b) {
        var btn = el("button", "", b[0]);
        btn.title = b[1] + " (arrow keys)";
        btn.setAttribute("aria-label", b[1]);
        btn.id = "btn-" + b[1];
        btn.addEventListener("click", b[2]);
        controls.appendChild(btn);
      });
    controls.appendChild(el("span", "", "ply " + ply + " of " + g.plies.length));
    v.appendChild(controls);

    var info = el("div", "ply-info");
    info.id = "ply-info";
    if (st.move) {
      var p = st.move;
      info.appendChild(el("p", "", "Ply " + ply + ": " + describeMove(g, p)));
      var t = [];
      if (p.time_ms !== null && p.time_ms !== undefined) t.push("took " + fmtMs(p.time_ms));
      if (p.clock_ms !== null && p.clock_ms !== undefined) t.push("clock left " + fmtMs(p.clock_ms));
      if (t.length) info.appendChild(el("p", "small", t.join(" · ")));
      if (p.info) {
        var f = [];
        if (p.info.depth !== undefined) f.push("depth " + p.info.depth);
        if (p.info.score !== undefined) f.push("score " + p.info.score);
        if (p.info.nodes !== undefined) f.push("nodes " + p.info.nodes);
        if (p.info.time_ms !== undefined) f.push("time " + fmtMs(p.info.time_ms));
        if (p.info.pv && p.info.pv.length) f.push("pv " + p.info.pv.join(" "));
        if (p.info.string) f.push("“" + p.info.string + "”");
        info.appendChild(el("p", "small", "Search: " + f.join(" · ")));
      }
      var a = accText(p.accuracy);
      if (a) info.appendChild(el("p", "acc " + (p.accuracy.blunder ? "blunder" : p.accuracy.loss > 0 ? "inacc" : "perfect"), a));
    } else {
      info.appendChild(el("p", "", "Start position, " + (st.toMove === "south" ? "South" : "North") + " to move."));
    }
    if (ply === g.plies.length) {
      var seeds = g.score ? g.score[0] + "–" + g.score[1] : "";
      info.appendChild(el("p", "", "Final: " + g.result + ", " + g.termination.replace(/_/g, " ") +
        (g.forfeit ? " by " + g.forfeit + (seeds ? " (seeds when it stopped: " + seeds + ")" : "") : seeds ? " (" + seeds + ")" : "")));
    }
    v.appendChild(info);

    var list = el("div", "moves");
    g.plies.forEach(function (p, k) {
      var cls = p.by === "opening" ? "opening" : "";
      if (p.accuracy) cls += p.accuracy.blunder ? " blunder" : p.accuracy.loss > 0 ? " inacc" : "";
      if (k + 1 === ply) cls += " current";
      var s = el("span", cls, (k + 1) + ". " + p.move);
      if (p.accuracy) s.title = accText(p.accuracy);
      s.addEventListener("click", function () { go(k + 1); });
      list.appendChild(s);
    });
    v.appendChild(list);
    Array.prototype.forEach.call($("game-list").tBodies[0].rows, function (r) {
      r.className = r.dataset.game === g.id ? "current" : "";
    });
  }

  function go(n) {
    if (!current) return;
    ply = Math.max(0, Math.min(current.plies.length, n));
    var h = "#game=" + encodeURIComponent(current.id) + "&ply=" + ply;
    if (location.hash !== h) history.replaceState(null, "", h);
    render();
  }

  function fromHash(event) {
    var params = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) params[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
    });
    // `only=SECTION` shows one section alone (for sharing and screenshots).
    Array.prototype.forEach.call(document.querySelectorAll("main > section"), function (s) {
      s.classList.toggle("solo", s.id === params.only);
    });
    if (params.only) document.body.dataset.only = params.only; else delete document.body.dataset.only;
    // `bot=`, `result=` (win, loss, draw) and `termination=` set the list's filters.
    var filtered = false;
    [["bot", "filter-bot"], ["result", "filter-result"], ["termination", "filter-termination"]].forEach(function (f) {
      if (params[f[0]] !== undefined) { $(f[1]).value = params[f[0]]; filtered = true; }
    });
    if (filtered) renderList();
    if (!params.game || !byId[params.game]) return;
    current = byId[params.game];
    var n = parseInt(params.ply || "0", 10);
    ply = isNaN(n) ? 0 : Math.max(0, Math.min(current.plies.length, n));
    render();
    if (event) $("viewer").scrollIntoView({ block: "start" });
  }

  document.addEventListener("keydown", function (e) {
    if (!current || e.target.tagName === "SELECT" || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowRight") { go(ply + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(ply - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(current.plies.length); e.preventDefault(); }
  });
  window.addEventListener("hashchange", fromHash);
  renderList();
  fromHash(null);
})();
