// Drag and drop on the table, by mouse, pen or touch alike (pointer events): a target the move
// builder marked `data-drag` is carried onto a place that takes it (`data-drop`, picks.js `drop`).
// A press that does not move is a click as ever; the keyboard picks the same targets by Enter.
// While dragging, a copy of the target follows the pointer and the places that take it are lit.

const SLOP = 6; // px a press must move before it is a drag (a tap that wobbles is still a tap)

export function dragging(board, builder) {
  let drag = null; // {el, id, x, y, ghost, places, over}
  let swallow = false; // the click a drop leaves behind

  const placeAt = (x, y) => {
    const hit = document.elementFromPoint(x, y);
    const place = hit && hit.closest("[data-drop]");
    return place && drag.places.includes(place) ? place : null;
  };

  const end = () => {
    if (!drag) return;
    if (drag.ghost) drag.ghost.remove();
    for (const p of drag.places) p.classList.remove("drop-ok", "drop-over");
    drag.el.classList.remove("dragging");
    drag = null;
  };

  board.onpointerdown = (e) => {
    if (e.button !== 0 || drag) return;
    const el = e.target.closest(".target[data-drag]");
    if (!el || !board.contains(el)) return;
    drag = { el, id: e.pointerId, x: e.clientX, y: e.clientY, ghost: null, places: [], over: null };
  };

  const move = (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < SLOP) return;
      drag.places = builder.placesFor(drag.el);
      if (!drag.places.length) return end();
      const r = drag.el.getBoundingClientRect();
      drag.dx = drag.x - r.left;
      drag.dy = drag.y - r.top;
      drag.ghost = drag.el.cloneNode(true);
      drag.ghost.classList.add("drag-ghost");
      drag.ghost.removeAttribute("tabindex");
      drag.ghost.setAttribute("aria-hidden", "true");
      drag.ghost.style.setProperty("width", `${r.width}px`);
      document.body.append(drag.ghost);
      drag.el.classList.add("dragging");
      for (const p of drag.places) p.classList.add("drop-ok");
    }
    e.preventDefault();
    drag.ghost.style.setProperty("left", `${e.clientX - drag.dx}px`);
    drag.ghost.style.setProperty("top", `${e.clientY - drag.dy}px`);
    const over = placeAt(e.clientX, e.clientY);
    if (over !== drag.over) {
      if (drag.over) drag.over.classList.remove("drop-over");
      if (over) over.classList.add("drop-over");
      drag.over = over;
    }
  };

  const up = (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.ghost) { drag = null; return; } // a click: the click handler picks
    const place = placeAt(e.clientX, e.clientY);
    const el = drag.el;
    end();
    swallow = true;
    setTimeout(() => { swallow = false; }, 0);
    if (place) builder.drop(el, place);
  };

  // the browser's own drag (of selected text, an image) would cancel ours mid-way
  board.ondragstart = (e) => { if (e.target.closest && e.target.closest("[data-drag]")) e.preventDefault(); };
  // on the window: a drag goes where it likes, over the dock and beyond the board
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", end);
  const click = (e) => {
    if (swallow) { e.stopPropagation(); e.preventDefault(); swallow = false; }
  };
  window.addEventListener("click", click, true);
  return () => {
    end();
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", end);
    window.removeEventListener("click", click, true);
  };
}
