// The game screens by catalog id; a game without one is drawn as a plain note.

import vilar from "./vilar-de-mouros.js";
import portugal from "./i-love-portugal.js";
import itchy from "./itchy-feet.js";
import liz from "./miss-liz-parks.js";
import { h } from "../ui.js";

export const SCREENS = {
  "vilar-de-mouros": vilar,
  "i-love-portugal": portugal,
  "itchy-feet": itchy,
  "miss-liz-parks": liz,
};

export const FALLBACK = {
  render() {
    return { board: h("p", { class: "muted" }, "This web table has no screen for this game yet; its moves are listed below."), hand: null };
  },
};
