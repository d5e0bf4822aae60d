//! `damelab repl` (and `damelab` alone): the interactive workbench in the terminal.

use miette::Report;

pub fn repl(
    variant: &str,
    history: Option<std::path::PathBuf>,
    no_color: bool,
    echo: bool,
    ascii: bool,
) -> Result<(), Report> {
    crate::repl::run(
        variant,
        crate::repl::Options {
            history,
            no_color,
            echo,
            ascii,
        },
    )
}
