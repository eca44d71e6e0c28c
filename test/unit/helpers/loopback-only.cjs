// Preloaded (NODE_OPTIONS=--require) into a child process that may reach no
// host but this machine, such as `ovsx publish` against a loopback stand-in of
// the registry: a name lookup or a TCP connection to any other host ends the
// process with exit code 97 and says where it tried to go, before a packet leaves.
'use strict';
const dns = require('node:dns');
const net = require('node:net');

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function refuse(host) {
  process.stderr.write(`loopback-only: refused to reach ${host}\n`);
  process.exit(97);
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  // connect(options), connect(port, host), connect(path); http passes [options, callback] as one array.
  // A truthy options.path is a local socket (net's own test); http leaves it null for TCP.
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (first && typeof first === 'object') {
    if (!first.path && !LOOPBACK.has(first.host ?? 'localhost')) refuse(first.host);
  } else if (typeof first === 'number' || /^\d+$/.test(String(first))) {
    const host = typeof args[1] === 'string' ? args[1] : 'localhost';
    if (!LOOPBACK.has(host)) refuse(host);
  }
  return connect.apply(this, args);
};

for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6']) {
  const original = dns[name];
  dns[name] = function (host, ...rest) {
    if (!LOOPBACK.has(host)) refuse(host);
    return original.call(this, host, ...rest);
  };
}
