// Ratings (docs/players.md, "Ratings and leaderboards"): a leaderboard per game, and a player's page
// (its ratings, their history, games played and won, once the player made the page public).

import { get, catalog } from "./api.js";
import { h, clear, errorMessage, pill } from "./ui.js";
import { player } from "./player.js";
import { byLanguage, locale, number, pluralOf, titleOf as catalogTitle } from "./words.js";

const PAGE = 50; // players a page of the leaderboard
const HISTORY = 20; // the latest rated tables a player's page lists

// A rating to a tenth, the reader's way ("12,3" in Portuguese).
const tenths = (r) => new Intl.NumberFormat(locale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(r);

// The words of these screens a person reads, by language (kept together for translation).
const WORDS = byLanguage({
  en: {
    loading: "Loading…",
    leaderboard: (title) => `Leaderboard: ${title}`,
    games: "games",
    empty: "Nobody is on this leaderboard yet: a player is listed after five rated games.",
    columns: ["Rank", "Player", "Rating", "Rated games", "Wins"],
    more: "Show more",
    reading: "Reading the leaderboard",
    rating: (r) => r.toFixed(1),
    ratingNote: "A rating is OpenSkill's mu − 3 sigma: it rises as the player wins and as the rating grows surer.",
    privatePage: (name) => `${name} keeps this page private.`,
    makePublic: "Show yours in your settings.",
    counts: (games, wins) => `${games} rated game${games === 1 ? "" : "s"} played, ${wins} won.`,
    ratings: "Ratings",
    ratingColumns: ["Game", "Rating", "Rated games", "Wins"],
    provisional: "provisional",
    history: "Latest rated tables",
    historyColumns: ["Game", "Table", "Place", "Rating after"],
    replay: "replay",
    noRatings: "No rated game yet.",
    readingPage: "Reading the player's page",
  },
  pt: {
    loading: "A carregar…",
    leaderboard: (title) => `Classificação: ${title}`,
    games: "jogos",
    empty: "Ainda ninguém está nesta classificação: um jogador entra nela depois de cinco jogos classificados.",
    columns: ["Posição", "Jogador", "Pontuação", "Jogos classificados", "Vitórias"],
    more: "Mostrar mais",
    reading: "A ler a classificação",
    rating: (r) => tenths(r),
    ratingNote: "A pontuação é o mu − 3 sigma do OpenSkill: sobe quando o jogador ganha e à medida que a pontuação fica mais certa.",
    privatePage: (name) => `${name} mantém esta página privada.`,
    makePublic: "Mostre a sua nas suas definições.",
    counts: (games, wins) => `${number(games)} ${pluralOf(games) === "one" ? "jogo classificado jogado" : "jogos classificados jogados"}, ${number(wins)} ${pluralOf(wins) === "one" ? "ganho" : "ganhos"}.`,
    ratings: "Pontuações",
    ratingColumns: ["Jogo", "Pontuação", "Jogos classificados", "Vitórias"],
    provisional: "provisória",
    history: "Últimas mesas classificadas",
    historyColumns: ["Jogo", "Mesa", "Lugar", "Pontuação depois"],
    replay: "repetição",
    noRatings: "Ainda nenhum jogo classificado.",
    readingPage: "A ler a página do jogador",
  },
  gl: {
    loading: "Cargando…",
    leaderboard: (title) => `Clasificación: ${title}`,
    games: "xogos",
    empty: "Aínda non hai ninguén nesta clasificación: un xogador aparece nela tras cinco partidas puntuadas.",
    columns: ["Posto", "Xogador", "Puntuación", "Partidas puntuadas", "Vitorias"],
    more: "Amosar máis",
    reading: "Lendo a clasificación",
    rating: (r) => tenths(r),
    ratingNote: "A puntuación é o mu − 3 sigma de OpenSkill: sobe cando o xogador gaña e a medida que a puntuación se fai máis segura.",
    privatePage: (name) => `${name} mantén esta páxina privada.`,
    makePublic: "Amosa a túa nos teus axustes.",
    counts: (games, wins) => `${number(games)} ${pluralOf(games) === "one" ? "partida puntuada xogada" : "partidas puntuadas xogadas"}, ${number(wins)} ${pluralOf(wins) === "one" ? "gañada" : "gañadas"}.`,
    ratings: "Puntuacións",
    ratingColumns: ["Xogo", "Puntuación", "Partidas puntuadas", "Vitorias"],
    provisional: "provisional",
    history: "Últimas mesas puntuadas",
    historyColumns: ["Xogo", "Mesa", "Posto", "Puntuación despois"],
    replay: "repetición",
    noRatings: "Aínda ningunha partida puntuada.",
    readingPage: "Lendo a páxina do xogador",
  },
  es: {
    loading: "Cargando…",
    leaderboard: (title) => `Clasificación: ${title}`,
    games: "juegos",
    empty: "Todavía no hay nadie en esta clasificación: un jugador aparece en ella tras cinco partidas puntuadas.",
    columns: ["Puesto", "Jugador", "Puntuación", "Partidas puntuadas", "Victorias"],
    more: "Mostrar más",
    reading: "Leyendo la clasificación",
    rating: (r) => tenths(r),
    ratingNote: "La puntuación es el mu − 3 sigma de OpenSkill: sube cuando el jugador gana y a medida que la puntuación se vuelve más segura.",
    privatePage: (name) => `${name} mantiene esta página privada.`,
    makePublic: "Muestra la tuya en tus ajustes.",
    counts: (games, wins) => `${number(games)} ${pluralOf(games) === "one" ? "partida puntuada jugada" : "partidas puntuadas jugadas"}, ${number(wins)} ${pluralOf(wins) === "one" ? "ganada" : "ganadas"}.`,
    ratings: "Puntuaciones",
    ratingColumns: ["Juego", "Puntuación", "Partidas puntuadas", "Victorias"],
    provisional: "provisional",
    history: "Últimas mesas puntuadas",
    historyColumns: ["Juego", "Mesa", "Puesto", "Puntuación después"],
    replay: "repetición",
    noRatings: "Todavía ninguna partida puntuada.",
    readingPage: "Leyendo la página del jugador",
  },
});

const titleOf = (titles, game) => titles.get(game) || game;

export async function showLeaderboard(root, game) {
  clear(root, h("p", {}, WORDS.loading));
  const games = await catalog().catch(() => []);
  const titles = new Map(games.map((g) => [g.game, catalogTitle(g.game, g.title)]));
  const body = h("tbody", {});
  const more = h("button", { hidden: true, "data-testid": "more" }, WORDS.more);
  let cursor = 0;
  const page = async () => {
    try {
      const answer = await get(`/leaderboards/${encodeURIComponent(game)}`, { params: { limit: PAGE, cursor } });
      answer.players.forEach((p, i) => body.append(h("tr", { "data-player": p.player_id },
        h("td", {}, String(cursor + i + 1)),
        h("td", {}, h("a", { href: `#/player/${p.player_id}` }, p.name)),
        h("td", { class: "number" }, WORDS.rating(p.rating)),
        h("td", { class: "number" }, String(p.games)),
        h("td", { class: "number" }, String(p.wins)))));
      cursor = answer.next_cursor === null || answer.next_cursor === undefined ? null : answer.next_cursor;
      more.hidden = cursor === null;
      return answer.players.length;
    } catch (err) {
      errorMessage(err, WORDS.reading);
      return 0;
    }
  };
  more.onclick = () => page();
  const found = await page();
  clear(root, h("div", { class: "ratings", "data-testid": "leaderboard", "data-game": game },
    h("h1", {}, WORDS.leaderboard(titleOf(titles, game))),
    h("nav", { class: "game-tabs", "aria-label": WORDS.games }, games.map((g) =>
      h("a", { href: `#/leaderboard/${g.game}`, "aria-current": g.game === game ? "page" : null }, titleOf(titles, g.game)))),
    found || body.children.length ? h("table", { class: "games leaderboard" },
      h("thead", {}, h("tr", {}, WORDS.columns.map((c) => h("th", { scope: "col" }, c)))), body)
      : h("p", { class: "muted", "data-testid": "empty" }, WORDS.empty),
    more,
    h("p", { class: "muted" }, WORDS.ratingNote)));
}

export async function showPlayer(root, playerId) {
  clear(root, h("p", {}, WORDS.loading));
  const games = await catalog().catch(() => []);
  const titles = new Map(games.map((g) => [g.game, catalogTitle(g.game, g.title)]));
  let page;
  try {
    page = await get(`/players/${encodeURIComponent(playerId)}`);
  } catch (err) {
    clear(root, h("p", { class: "message error" }, err.message));
    return;
  }
  const me = player();
  const own = me && me.player_id === page.player_id;
  if (!page.public) {
    clear(root, h("div", { class: "ratings", "data-testid": "player-page" },
      h("h1", {}, page.name),
      h("p", {}, WORDS.privatePage(page.name)),
      own ? h("p", {}, h("a", { href: "#/me" }, WORDS.makePublic)) : null));
    return;
  }
  const latest = page.history.slice(-HISTORY).reverse();
  clear(root, h("div", { class: "ratings", "data-testid": "player-page", "data-public": "" },
    h("h1", {}, page.name),
    h("p", {}, WORDS.counts(page.games, page.wins)),
    h("h2", {}, WORDS.ratings),
    page.ratings.length ? h("table", { class: "games" },
      h("thead", {}, h("tr", {}, WORDS.ratingColumns.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, page.ratings.map((r) => h("tr", { "data-game": r.game },
        h("td", {}, h("a", { href: `#/leaderboard/${r.game}` }, titleOf(titles, r.game))),
        h("td", { class: "number" }, WORDS.rating(r.rating), r.provisional ? [" ", pill(WORDS.provisional)] : null),
        h("td", { class: "number" }, String(r.games)),
        h("td", { class: "number" }, String(r.wins))))))
      : h("p", { class: "muted" }, WORDS.noRatings),
    latest.length ? [h("h2", {}, WORDS.history), h("table", { class: "games" },
      h("thead", {}, h("tr", {}, WORDS.historyColumns.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, latest.map((p) => h("tr", {},
        h("td", {}, titleOf(titles, p.game)),
        h("td", {}, h("a", { href: `#/replay/${p.game_id}` }, WORDS.replay)),
        h("td", { class: "number" }, String(p.place)),
        h("td", { class: "number" }, WORDS.rating(p.rating))))))] : null));
}
