//! The front ends: the command line and its help, the documented transcripts, the REPL, the web server and page.

pub mod cli;
pub mod docs;
pub mod help;
pub mod probe_words;
pub mod repl;
pub mod repl_live;
pub mod repl_polish;
pub mod repl_pty;
pub mod web_aims;
pub mod web_api;
pub mod web_boards;
pub mod web_browser;
pub mod web_browser_columns;
pub mod web_browser_hand;
pub mod web_browser_review;
pub mod web_chart;
pub mod web_collection;
pub mod web_external;
pub mod web_firefox;
pub mod web_hostile;
pub mod web_lines;
pub mod web_pdn;
pub mod web_review;
pub mod web_route_marks;
pub mod web_streams;
pub mod webdriver;
