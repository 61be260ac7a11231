// boardgame.io's own server (Koa, socket.io) running the port of Vilar de Mouros, as its
// documentation sets one up: `node serve.js --port N [--flatfile DIR]`. Without --flatfile
// it keeps matches in its default in-memory storage; with it, in FlatFile (node-persist
// files in DIR). It listens on 127.0.0.1 only.
'use strict';

const { Server, FlatFile } = require('boardgame.io/server');
const { Vilar } = require('./vilar');

function option(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(option('--port'));
const dir = option('--flatfile');
const db = dir ? new FlatFile({ dir, logging: false }) : undefined; // undefined: boardgame.io's InMemory

// The bench's sockets come from the bench itself (no browser, no Origin header).
const server = Server({ games: [Vilar], db, origins: [/.*/] });

// Koa listens on every interface; boardgame.io's run() has no host option, so its
// http server is told to listen on loopback before run() calls listen on it.
const listen = server.app.listen.bind(server.app);
server.app.listen = (p, callback) => {
  const http = listen(p, '127.0.0.1', callback);
  return http;
};

server.run({ port, callback: () => process.stdout.write(`boardgame.io serving on 127.0.0.1:${port}\n`) });

process.on('SIGTERM', () => process.exit(0));
