//! `aboure serve DIR...`: the live page of the runs in those folders. All
//! the work is in `aboure-serve`; this file parses arguments and prints the
//! URL.

use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use aboure_serve::ServeOptions;
use anyhow::Context;

/// Serve a live page of runs as their results files grow.
#[derive(clap::Args)]
pub struct Args {
    /// Run output folders (each may hold several results files, one per shard).
    #[arg(required = true)]
    folders: Vec<PathBuf>,
    /// Show the folders as one run: its shards, each in its own folder.
    #[arg(long)]
    combine: bool,
    /// Listening options.
    #[command(flatten)]
    listen: Listen,
}

/// Where the live page listens (shared by `aboure serve` and `aboure run --serve`).
#[derive(clap::Args, Clone, Debug)]
pub struct Listen {
    /// Port to listen on (0: any free port; the URL is printed).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Address to listen on; anything but 127.0.0.1 also needs --allow-remote.
    #[arg(long, default_value = "127.0.0.1")]
    pub address: IpAddr,
    /// Allow listening on an address other machines can reach; every
    /// request then needs the random token in the printed URL.
    #[arg(long)]
    pub allow_remote: bool,
}

impl Listen {
    /// True if any of the options differs from its default.
    pub fn is_set(&self) -> bool {
        self.port != 0 || self.address != IpAddr::from([127, 0, 0, 1]) || self.allow_remote
    }

    /// The server's options for `folders`.
    pub fn options(&self, folders: Vec<PathBuf>) -> ServeOptions {
        ServeOptions {
            folders,
            address: self.address,
            port: self.port,
            allow_remote: self.allow_remote,
            ..ServeOptions::default()
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::new("warn"))
        .try_init()
        .ok();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let options = aboure_serve::ServeOptions {
            combine: args.combine,
            ..args.listen.options(args.folders)
        };
        let running = aboure_serve::start(options).await?;
        println!("live page: {}", running.url);
        tokio::select! {
            _ = running.wait() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
