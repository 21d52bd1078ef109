// A lean HTTP/1.1 client for flow scenarios, as lean as autocannon (the loader of every other
// scenario): one kept-alive socket per concurrent flow, requests written as text, answers read by
// Content-Length. fetch cost the bench process about 4.4 ms of CPU per login flow and node:http about
// 2.4 ms on a loaded 2-core box, against about 1 ms for this client: a handicap of the flow side that
// is no overhead of the service.
import { Buffer } from 'node:buffer';
import net from 'node:net';

/** One kept-alive HTTP/1.1 connection, one request at a time; answers must carry Content-Length. */
class Connection {
  static open(url) {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => resolve(new Connection(socket, `${hostname}:${port}`)));
      socket.once('error', reject);
    });
  }

  constructor(socket, host) {
    this.socket = socket;
    this.host = host;
    this.buffer = Buffer.alloc(0);
    this.pending = undefined;
    this.closed = false;
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.read();
    });
    const fail = (error) => {
      this.closed = true;
      this.pending?.reject(error ?? new Error('connection closed'));
      this.pending = undefined;
    };
    socket.on('error', fail);
    socket.on('close', () => fail());
  }

  /** `headers`: extra request headers (name → value), e.g. authorization. */
  request(method, path, body, headers = {}) {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('connection closed'));
      this.pending = { resolve, reject };
      const type = body === undefined ? '' : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
      const extra = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      this.socket.write(`${method} ${path} HTTP/1.1\r\nhost: ${this.host}\r\n${type}${extra}\r\n${body ?? ''}`);
    });
  }

  read() {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (this.pending === undefined || end < 0) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
    if (length === undefined) {
      this.pending.reject(new Error(`no Content-Length in: ${head.split('\r\n')[0]}`));
      this.pending = undefined;
      this.socket.destroy();
      return;
    }
    if (this.buffer.length < end + 4 + Number(length)) return;
    const text = this.buffer.subarray(end + 4, end + 4 + Number(length)).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + Number(length));
    const { resolve } = this.pending;
    this.pending = undefined;
    resolve({ status: Number(head.slice(9, 12)), text });
  }
}

/** Connections to reuse, one per flow in progress (a closed one is dropped and replaced). */
const idle = new Map();

export async function withConnection(baseUrl, work) {
  const free = idle.get(baseUrl) ?? [];
  idle.set(baseUrl, free);
  let connection = free.pop();
  while (connection?.closed) connection = free.pop();
  connection ??= await Connection.open(baseUrl);
  try {
    return await work(connection);
  } finally {
    if (!connection.closed) free.push(connection);
  }
}
