import type { BlockList, Socket } from 'node:net';
import { cidrBlockList, inBlockList } from './pipeline/error-handlers.js';

/**
 * A list of CIDRs tested against a request's TCP peer. The peer is the same for every request of a
 * keep-alive connection, so the answer is kept per socket: BlockList.check is the costliest step of
 * a decision that otherwise only reads memory.
 */
export class PeerList {
  private readonly list: BlockList | undefined;
  private readonly answers = new WeakMap<Socket, boolean>();

  constructor(cidrs: readonly string[], setting: string) {
    this.list = cidrs.length === 0 ? undefined : cidrBlockList(cidrs, setting);
  }

  includes(socket: Socket): boolean {
    if (this.list === undefined) return false;
    let answer = this.answers.get(socket);
    if (answer === undefined) {
      answer = inBlockList(this.list, socket.remoteAddress ?? '');
      this.answers.set(socket, answer);
    }
    return answer;
  }
}
