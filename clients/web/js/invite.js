// An invitation to take over a vacated seat (docs/table-services.md, "Taking over a vacated seat"):
// the link a seat still in the game copied, `#/invite/<invitation>` (the fragment never reaches a
// server's logs). The page takes the seat over from the bot as the player, then opens the table; a
// newcomer first says its name, and the player is made.

import { get, catalog } from "./api.js";
import { h, clear, errorMessage } from "./ui.js";
import { player, defaultName, sit } from "./player.js";
import { byLanguage, titleOf } from "./words.js";

// The words of this screen a person reads, by language (kept together for translation).
const WORDS = byLanguage({
  en: {
    loading: "Loading the invitation…",
    title: "An invitation",
    text: (game) => `You are invited to take over a seat at a table of ${game}: a bot plays it on since its player left.`,
    yourName: "Your name",
    take: "Take the seat",
    taking: "Taking the seat",
    watch: "Watch the table instead",
    aGame: "a game",
  },
  pt: {
    loading: "A carregar o convite…",
    title: "Um convite",
    text: (game) => `Está convidado a ocupar um lugar numa mesa de ${game}: um bot continua a jogá-lo desde que o seu jogador saiu.`,
    yourName: "O seu nome",
    take: "Ocupar o lugar",
    taking: "A ocupar o lugar",
    watch: "Ver a mesa em vez disso",
    aGame: "um jogo",
  },
  gl: {
    loading: "Cargando o convite…",
    title: "Un convite",
    text: (game) => `Convídante a ocupar un posto nunha mesa de ${game}: un bot segue xogándoo desde que o seu xogador marchou.`,
    yourName: "O teu nome",
    take: "Ocupar o posto",
    taking: "Ocupando o posto",
    watch: "Mirar a mesa no seu lugar",
    aGame: "un xogo",
  },
  es: {
    loading: "Cargando la invitación…",
    title: "Una invitación",
    text: (game) => `Te invitan a ocupar un puesto en una mesa de ${game}: un bot lo sigue jugando desde que su jugador se fue.`,
    yourName: "Tu nombre",
    take: "Ocupar el puesto",
    taking: "Ocupando el puesto",
    watch: "Mirar la mesa en su lugar",
    aGame: "un juego",
  },
});

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
  const entry = (await catalog().catch(() => [])).find((g) => g.game === table.game);
  const title = entry ? titleOf(entry.game, entry.title) : WORDS.aGame;
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
