//! The `damelab` binary: the command line of [`damelab::cli`].

fn main() -> std::process::ExitCode {
    damelab::cli::main()
}
