// Every name a person reads on the table, whole: each word of a card's name and subtitle, of a
// cell's and a pile's, on one line, inside its card (or cell, or pile), under no other card; the
// map's region names on no other name and no other region's circle. The problems found, in words.
// (Evaluated in the page by tests/clients/test_web_game.py, from its "() =>" on.)
() => {
  const bad = [];
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  for (const el of document.querySelectorAll(".card-title, .card-sub, .cell-name, .pile-count")) {
    if (!el.getClientRects().length) continue; // not shown at this width
    const holder = el.closest(".card, .cell, .pile");
    const name = el.textContent.trim();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode()); ) {
      for (const m of node.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        if (rects.length !== 1) { bad.push(`${name}: "${m[0]}" broken over ${rects.length} lines`); continue; }
        if (holder && !inside(rects[0], holder.getBoundingClientRect())) bad.push(`${name}: "${m[0]}" cut off`);
        for (let next = holder && holder.nextElementSibling; next; next = next.nextElementSibling) {
          if (next.getClientRects().length && overlap(next.getBoundingClientRect(), rects[0])) bad.push(`${name}: "${m[0]}" under another card`);
        }
      }
    }
  }
  const labels = [...document.querySelectorAll("svg.map text.label")].map((t) => [t.textContent, t.getBoundingClientRect(), t.closest("g")]);
  labels.forEach(([a, ra], i) => labels.slice(i + 1).forEach(([b, rb]) => { if (overlap(ra, rb)) bad.push(`${a} and ${b} overlap`); }));
  for (const [a, ra, own] of labels) {
    for (const ring of document.querySelectorAll("svg.map g.region .ring")) {
      if (ring.closest("g") !== own && overlap(ra, ring.getBoundingClientRect())) bad.push(`${a} covers ${ring.closest("g").dataset.circle}`);
    }
  }
  return [...new Set(bad)];
}
