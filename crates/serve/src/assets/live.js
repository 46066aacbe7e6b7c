// The live page: each server-sent event carries a JSON snapshot; the
// report's sections are swapped in whole, the game viewer is started again
// on the new games (keeping the game and filters open), and the live panel
// shows pace, time left, LLR and failures. No reloads.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var viewerSource = $("viewer-source").textContent;
  var token = new URLSearchParams(location.search).get("token");
  var url = document.body.dataset.events + (token ? "?token=" + encodeURIComponent(token) : "");
  var updates = 0;
  var listeners = [];

  // Runs the report's viewer script, first removing the listeners its
  // previous run added (it listens on the window and the document).
  function startViewer() {
    if (!$("report-data")) return; // a tune's page has no games to view
    listeners.forEach(function (l) { l[0].removeEventListener(l[1], l[2]); });
    listeners = [];
    var targets = [window, document];
    var originals = targets.map(function (t) { return t.addEventListener; });
    targets.forEach(function (t, i) {
      t.addEventListener = function (type, fn, opts) {
        listeners.push([t, type, fn]);
        originals[i].call(t, type, fn, opts);
      };
    });
    try { new Function(viewerSource)(); }
    catch (e) { console.error(e); }
    finally { targets.forEach(function (t, i) { t.addEventListener = originals[i]; }); }
  }

  function fmt(x, digits) { return x === null || x === undefined ? "–" : x.toFixed(digits); }
  function duration(s) {
    if (s === null || s === undefined) return "unknown";
    s = Math.max(0, Math.round(s));
    if (s < 60) return s + " s";
    if (s < 3600) return Math.round(s / 60) + " min";
    if (s < 86400) return Math.floor(s / 3600) + " h " + String(Math.floor(s % 3600 / 60)).padStart(2, "0") + " min";
    return Math.floor(s / 86400) + " d " + String(Math.floor(s % 86400 / 3600)).padStart(2, "0") + " h";
  }

  function showLive(s) {
    var l = s.live;
    $("live-games").textContent = l.games + (l.scheduled ? " of " + l.scheduled : "") + " (" + l.pairs + " pairs)";
    $("live-rate").textContent = fmt(l.per_minute, 1);
    var eta = "–";
    if (l.remaining_games === 0) eta = "done";
    else if (l.remaining_games !== null) {
      eta = duration(l.remaining_seconds) + " (about " + Math.round(l.remaining_games) + " games" +
        (l.eta_basis === "sprt" ? ", from the LLR's drift)" : ")");
    }
    $("live-eta").textContent = eta;
    var llr = $("live-llr");
    if (l.sprt) {
      llr.textContent = l.sprt.llr.toFixed(3) + " in [" + l.sprt.lower.toFixed(3) + ", " + l.sprt.upper.toFixed(3) + "]: " + l.sprt.decision.replace(/_/g, " ");
      var f = (l.sprt.llr - l.sprt.lower) / (l.sprt.upper - l.sprt.lower);
      $("live-llr-mark").style.left = (100 * Math.max(0, Math.min(1, f))) + "%";
      $("live-llr-bar").hidden = false;
    } else {
      llr.textContent = "no SPRT";
      $("live-llr-bar").hidden = true;
    }
    var list = $("live-failures");
    list.textContent = "";
    l.failures.forEach(function (f) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = "#game=" + encodeURIComponent(f.game) + "&ply=0";
      a.textContent = f.game;
      li.appendChild(a);
      li.appendChild(document.createTextNode(": " + f.bot + " loses by " + f.termination.replace(/_/g, " ") + (f.detail ? ": " + f.detail : "")));
      list.appendChild(li);
    });
    $("live-failures-count").textContent = l.failures_total ? l.failures_total + " in all" + (l.failures_total > l.failures.length ? ", the newest " + l.failures.length + " here" : "") : "none";
    showWorkers(l.workers);
    document.body.dataset.games = l.games;
    document.body.dataset.llr = l.sprt ? l.sprt.llr : "";
    document.body.dataset.leaderGames = l.leader ? l.leader.games : 0;
  }

  // The workers of a run many share (workers.json): hidden for one process.
  function showWorkers(w) {
    $("live-workers-box").hidden = !w;
    if (!w) return;
    var body = $("live-workers").tBodies[0];
    body.textContent = "";
    w.list.forEach(function (x) {
      var tr = document.createElement("tr");
      tr.className = "worker-" + x.state;
      var held = x.holding.length ? x.holding.length + " (" + x.holding.join(", ") + ")" : "0";
      [x.name, x.state, held, String(x.games), x.last_seen.replace("T", " ").replace("Z", " UTC")].forEach(function (t) {
        var td = document.createElement("td");
        td.textContent = t;
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    var count = function (s) { return w.list.filter(function (x) { return x.state === s; }).length; };
    $("live-workers-count").textContent = w.error ? w.error :
      count("alive") + " alive, " + count("ended") + " ended, " + count("dead") + " dead";
    $("live-taken-over").textContent = w.taken_over.length ?
      "Pairs taken over from dead workers: " + w.taken_over.map(function (t) {
        return "pair " + t.pair + " (from " + t.from + ", by " + t.by + ")";
      }).join("; ") : "No pair taken over from a dead worker.";
  }

  // A tune's folder: the budget done, theta and its trend, the state and,
  // at the end, the values (the report's sections below hold the plots).
  function showTune(t) {
    $("live-run").hidden = true;
    $("live-tune").hidden = false;
    if (t.error) { $("live-tune-state").textContent = t.error; return; }
    $("live-tune-iterations").textContent = t.iteration + (t.planned ? " of " + t.planned : "");
    $("live-tune-budget").value = t.planned ? Math.min(1, t.iteration / t.planned) : 0;
    $("live-tune-games").textContent = String(t.games);
    $("live-tune-objective").textContent = t.objective === "accuracy" ?
      fmt(t.objective_value, 3) + " seeds lost a move" : "mean gain " + fmt(t.objective_value, 3) + " a pair";
    var state = { running: "iterating", confirming: "confirming by an SPRT", finished: "finished" }[t.state];
    if (t.confirm) state += ": " + t.confirm.verdict + " after " + t.confirm.games + " games";
    $("live-tune-state").textContent = state;
    var body = $("live-theta").tBodies[0];
    body.textContent = "";
    t.theta.forEach(function (p) {
      var tr = document.createElement("tr");
      var trend = p.trend === null ? "–" : (p.trend >= 0 ? "+" : "") + p.trend.toFixed(2) + " in " + p.span;
      [p.name, p.value.toFixed(2), trend, String(p.start), p.min + " to " + p.max].forEach(function (x) {
        var td = document.createElement("td");
        td.textContent = x;
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    document.body.dataset.iterations = t.iteration;
    document.body.dataset.tuneState = t.state;
  }

  function apply(s) {
    var filters = ["filter-bot", "filter-result", "filter-termination"].map(function (id) { return [id, $(id) ? $(id).value : ""]; });
    $("report-body").innerHTML = s.body;
    startViewer();
    filters.forEach(function (f) {
      var e = $(f[0]);
      if (e && f[1] && e.value !== f[1]) { e.value = f[1]; e.dispatchEvent(new Event("change")); }
    });
    if (s.live.tune) showTune(s.live.tune); else showLive(s);
    updates++;
    document.body.dataset.updates = updates;
    $("live-status").textContent = "live: updated " + new Date().toLocaleTimeString() + " (" + updates + " updates)";
  }

  startViewer();
  var source = new EventSource(url);
  source.addEventListener("snapshot", function (e) { apply(JSON.parse(e.data)); });
  source.onerror = function () { $("live-status").textContent = "connection lost: retrying…"; };
})();
