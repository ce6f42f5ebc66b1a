//! oxide-runner COMMAND ...: the command line of the fuzz runner and the
//! conformance drivers (HELP). Run from the repository root.

use std::io::Read;
use std::process::ExitCode;

use oxide_runner::conf::Conf;
use oxide_runner::{batch, conformance, export, fuzz, gpu, suite, verdict};

const HELP: &str = "\
oxide-runner - the fuzz runner and the conformance suite's drivers

Usage (from the repository root):
  oxide-runner conformance [--mode=auto|host|compile] [--gpu-artifacts] [GROUP...]
                                          the conformance suite without a GPU
                                          (oxide-runner conformance --help; sh
                                          tests/conformance/run-host.sh runs it)
  oxide-runner conformance-build-gpu [GROUP...]
                                          conformance --mode=compile --gpu-artifacts,
                                          packed for a GPU machine
                                          (tests/conformance/build-gpu.sh)
  oxide-runner conformance-gpu [GROUP...] the suite on this machine's GPU from that
                                          pack (oxide-runner conformance-gpu --help;
                                          tests/conformance/run-gpu.sh)
  oxide-runner kernel host|compile GROUP NAME
                                          one kernel checked alone, as the suite
                                          does: $CONF_WORK/GROUP/NAME.result
  oxide-runner gpu-modules GROUP          a group's module for each GPU variant
                                          again, from its export and
                                          $CONF_BUILD/GROUP.kernels (after
                                          conformance --gpu-artifacts)
  oxide-runner fuzz [options]             the fuzz run (oxide-runner fuzz --help;
                                          sh tests/fuzz/run.sh runs it)
  oxide-runner export-group [--kernels DIR] GROUP
                                          mir-export of one group crate: a kernel
                                          mir-export rejects is left out, with its
                                          error, in $CONF_WORK/GROUP.export-errors
  oxide-runner export-deps [--kernels DIR] GROUP
                                          the group crates' dependencies built once
                                          for every export-group
  oxide-runner batch-group host|compile GROUP
                                          a group's exported kernels compiled (and
                                          run, mode host) at once
  oxide-runner verdict [--status N] STAGE FILE
                                          BUG or GAP of a failure

verdict prints GAP when STAGE is a compiler (mir-export, oxidec, oxidec
--target=host) and the code of the first error line of FILE (the first line
that says \"error\", - for standard input: a compiler's log, a runner's result)
is error[OX0200] (not supported yet) or OX0300 (not possible on the GPU),
and the tool's exit status N, when given, is that of a clean error (1, or 3
for mir-export --keep-going); BUG otherwise. The codes: man oxidec, man
mir-export (DIAGNOSTICS).

The conformance commands, export-group, export-deps, batch-group, kernel and
gpu-modules read and write the conformance machinery's directories (docs/conformance.md):
the group crates in DIR (default tests/conformance/kernels), CONF_BUILD
(default build/conformance), CONF_WORK (default build/conformance-work), and
take MIR_EXPORT, OXIDEC, PTXAS, CC, CARGO, JOBS and GPU_VARIANTS from the
environment.

Exit status: 0; 1 when a conformance or fuzz kernel failed, on a fatal error
of a conformance command (its message starts with \"conformance: \") or when
a file cannot be read; 2 on a usage error.
";

fn usage(msg: &str) -> ExitCode {
    eprintln!("oxide-runner: {msg}\nTry `oxide-runner --help`.");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rest = args.get(1..).unwrap_or(&[]);
    match args.first().map(String::as_str) {
        Some("-h" | "--help") => {
            print!("{HELP}");
            ExitCode::SUCCESS
        }
        Some("verdict") => verdict_cmd(rest),
        Some("conformance") => conformance_cmd(rest),
        Some("conformance-build-gpu") => ExitCode::from(conformance::build_gpu(rest) as u8),
        Some("conformance-gpu") => match rest.first().map(String::as_str) {
            Some("-h" | "--help") => {
                print!("{}", gpu::HELP);
                ExitCode::SUCCESS
            }
            Some(o) if o.starts_with('-') => {
                eprintln!("conformance: unknown option {o}");
                ExitCode::from(1)
            }
            _ => ExitCode::from(gpu::main(rest) as u8),
        },
        Some("kernel") => match rest {
            [mode, g, k] if mode == "host" || mode == "compile" => {
                suite::kernel_worker(&Conf::from_env(), mode == "host", g, k);
                ExitCode::SUCCESS
            }
            _ => usage("kernel takes host|compile, GROUP and NAME"),
        },
        Some("gpu-modules") => match rest {
            [g] if !g.starts_with('-') => {
                suite::gpu_modules(&Conf::from_env(), g, &suite::gpu_variants());
                ExitCode::SUCCESS
            }
            _ => usage("gpu-modules takes GROUP"),
        },
        Some("fuzz") => fuzz_cmd(rest),
        Some(c @ ("export-group" | "export-deps")) => export_cmd(c, rest),
        Some("batch-group") => match rest {
            [mode, g] if mode == "host" || mode == "compile" => {
                batch::batch_group(&Conf::from_env(), mode == "host", g);
                ExitCode::SUCCESS
            }
            _ => usage("batch-group takes host|compile and GROUP"),
        },
        Some(other) => usage(&format!("unknown command `{other}`")),
        None => usage("no command"),
    }
}

fn conformance_cmd(args: &[String]) -> ExitCode {
    match conformance::parse(args) {
        Err(m) => {
            eprintln!("conformance: {m}");
            ExitCode::from(1)
        }
        Ok(None) => {
            print!("{}", conformance::HELP);
            ExitCode::SUCCESS
        }
        Ok(Some(o)) => ExitCode::from(conformance::main(o) as u8),
    }
}

fn fuzz_cmd(args: &[String]) -> ExitCode {
    match fuzz::parse(args) {
        Err(m) => {
            eprintln!("fuzz: {m}");
            ExitCode::from(2)
        }
        Ok(None) => {
            print!("{}", fuzz::HELP);
            ExitCode::SUCCESS
        }
        Ok(Some(o)) => match fuzz::main(o) {
            Ok(st) => ExitCode::from(st as u8),
            Err(m) => {
                eprintln!("fuzz: {m}");
                ExitCode::from(1)
            }
        },
    }
}

fn export_cmd(cmd: &str, args: &[String]) -> ExitCode {
    let mut c = Conf::from_env();
    let g = match args {
        [k, dir, g] if k == "--kernels" => {
            c.kernels = dir.into();
            g
        }
        [g] if !g.starts_with('-') => g,
        _ => return usage(&format!("{cmd} takes [--kernels DIR] GROUP")),
    };
    if !c.kernels.join(g).join("Cargo.toml").is_file() {
        eprintln!("oxide-runner: {}: no group crate", c.kernels.join(g).display());
        return ExitCode::from(1);
    }
    if cmd == "export-deps" {
        export::deps_template(&c, g);
    } else {
        export::export_group(&c, g);
    }
    ExitCode::SUCCESS
}

fn verdict_cmd(args: &[String]) -> ExitCode {
    let mut it = args.iter().map(String::as_str);
    let mut status = None;
    let mut rest = Vec::new();
    while let Some(a) = it.next() {
        match a {
            "--status" => match it.next().and_then(|n| n.parse().ok()) {
                Some(n) => status = Some(n),
                None => return usage("--status takes a number"),
            },
            _ => rest.push(a),
        }
    }
    let [stage, file] = rest[..] else { return usage("verdict takes STAGE and FILE") };
    let text = if file == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map(|_| s)
    } else {
        std::fs::read(file).map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    match text {
        Ok(t) => {
            println!("{}", verdict::classify(stage, verdict::first_error_line(&t), status));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("oxide-runner: {file}: {e}");
            ExitCode::from(1)
        }
    }
}
