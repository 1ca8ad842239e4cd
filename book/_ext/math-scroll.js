// A displayed formula wider than the column scrolls sideways (the theme's CSS): such a
// formula must be reachable from the keyboard, so that a reader without a mouse can
// scroll it.  Mark exactly the formulas that overflow at the current width as focusable
// (book/_ext/static_math.py typesets the formulas when the site is built).
(() => {
  const mark = () => {
    for (const box of document.querySelectorAll("mjx-container")) {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
      else if (!scrolls && box.getAttribute("tabindex") === "0") box.removeAttribute("tabindex");
    }
  };
  let pending = 0;
  const later = () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(mark);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", later);
  else later();
  window.addEventListener("load", later);
  window.addEventListener("resize", later);
})();
