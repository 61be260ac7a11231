// The game screens by catalog id; a game without one is drawn by the JSON fallback alone.

import vilar from "./vilar-de-mouros.js";
import portugal from "./i-love-portugal.js";
import itchy from "./itchy-feet.js";
import liz from "./miss-liz-parks.js";

export const SCREENS = {
  "vilar-de-mouros": vilar,
  "i-love-portugal": portugal,
  "itchy-feet": itchy,
  "miss-liz-parks": liz,
};

export const FALLBACK = {
  render() {
    return { el: document.createElement("div"), drawn: new Set() };
  },
};
