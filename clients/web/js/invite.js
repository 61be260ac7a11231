// An invitation to take over a vacated seat (docs/table-services.md, "Taking over a vacated seat"):
// the link a seat still in the game copied, `#/invite/<invitation>` (the fragment never reaches a
// server's logs). The page takes the seat over from the bot as the player, then opens the table; a
// newcomer first says its name, and the player is made.

import { get, catalog } from "./api.js";
import { h, clear, errorMessage } from "./ui.js";
import { player, defaultName, sit } from "./player.js";

// The words of this screen a person reads (kept together for translation).
const WORDS = {
  loading: "Loading the invitation…",
  title: "An invitation",
  text: (game) => `You are invited to take over a seat at a table of ${game}: a bot plays it on since its player left.`,
  yourName: "Your name",
  take: "Take the seat",
  taking: "Taking the seat",
  watch: "Watch the table instead",
  aGame: "a game",
};

export async function showInvite(root, invite) {
  clear(root, h("p", {}, WORDS.loading));
  const gameId = invite.slice(0, 16);
  let table;
  try {
    table = await get(`/games/${gameId}`);
  } catch (err) {
    clear(root, h("p", { class: "message error" }, err.message));
    return;
  }
  const title = (await catalog().catch(() => [])).find((g) => g.game === table.game)?.title || WORDS.aGame;
  const take = async (name) => {
    try {
      await sit(gameId, table.game, name, { invite });
      location.replace(`#/game/${gameId}`); // the invitation is not kept in the history
    } catch (err) {
      errorMessage(err, WORDS.taking);
      clear(root, h("div", { class: "account" }, h("h1", {}, WORDS.title), h("p", {}, WORDS.text(title)),
        h("p", {}, h("a", { href: `#/watch/${gameId}`, class: "button" }, WORDS.watch))));
    }
  };
  if (player()) {
    await take("");
    return;
  }
  const name = h("input", { type: "text", id: "invite-name", maxlength: 40, value: defaultName(), "data-testid": "name", autocomplete: "nickname" });
  clear(root, h("div", { class: "account", "data-testid": "invite" },
    h("h1", {}, WORDS.title),
    h("p", {}, WORDS.text(title)),
    h("form", { class: "panel welcome-form", onsubmit: (e) => { e.preventDefault(); take(name.value); } },
      h("label", { for: "invite-name" }, WORDS.yourName), " ", name, " ",
      h("button", { type: "submit", class: "primary", "data-testid": "take-seat" }, WORDS.take))));
}
