// What scrolls sideways, and whether a reader without a mouse can reach it: every
// formula, code block, output or table wider than the column needs a tab stop
// (book/_ext/page-load.js gives them), and no section may be left as a placeholder.
() => {
  const blocks = [...document.querySelectorAll(
    "mjx-container, pre, .cell_output > .output, .pst-scrollable-table-container")]
    .filter((e) => !e.closest(".toggle-hidden"));
  const scrolling = blocks.filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1);
  return {
    scrolling: scrolling.length,
    scrollUnfocusable: scrolling.filter((e) => e.tabIndex < 0).map((e) => `${e.tagName}: ${e.textContent.slice(0, 60)}`),
    sectionsWaiting: [...document.querySelectorAll(".bd-article > section > section:not(.laid-out)")].map((e) => e.id),
  };
}
