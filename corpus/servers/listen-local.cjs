// Preloaded (`node --require`) into the Node servers of the corpus that listen on a port they
// take from the environment on every interface (server-everything's `PORT`): each
// `server.listen(port, ...)` binds 127.0.0.1 instead, and the address it got is printed to
// stderr as `listening on 127.0.0.1:PORT`, so PORT=0 gives a free port the caller can read.
'use strict';
const net = require('net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const port = args[0];
  if (typeof port === 'number' || (typeof port === 'string' && /^\d+$/.test(port))) {
    // listen(port[, host][, backlog][, callback])
    if (typeof args[1] === 'string') args[1] = '127.0.0.1';
    else args.splice(1, 0, '127.0.0.1');
    this.once('listening', () => {
      const a = this.address();
      process.stderr.write(`listening on ${a.address}:${a.port}\n`);
    });
  }
  return listen.apply(this, args);
};
