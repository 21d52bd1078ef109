// The machine's wake-ups, counted as inter-processor interrupts (bench/run.mjs and bench/calibrate.mjs).
//
// On a loopback benchmark a server that answers more slowly than its client can ask leaves the client
// asleep between answers, and each answer then has to wake it on the other CPU: the kernel sends an
// IPI from inside the server's socket write (Linux counts them as "RES", rescheduling, and "CAL",
// function call, in /proc/interrupts). Bare Fastify keeps its client busy and sends almost none; a
// server a few µs slower sends about one per request, and on a virtual machine each costs its sender
// several µs of kernel time that no code of the server's own can avoid. The count per request shows
// which side of that line a row is on.
import { readFileSync } from 'node:fs';

const KINDS = new Set(['RES', 'CAL']);

/** Rescheduling and function-call IPIs of all CPUs so far, or undefined where /proc/interrupts is missing. */
export function wakeupInterrupts() {
  let text;
  try {
    text = readFileSync('/proc/interrupts', 'utf8');
  } catch {
    return undefined;
  }
  let total = 0;
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (!KINDS.has(fields[0]?.replace(/:$/, ''))) continue;
    // "RES:  55675  43447  Rescheduling interrupts": the counts, one per CPU, up to the description.
    for (const field of fields.slice(1)) {
      if (!/^\d+$/.test(field)) break;
      total += Number(field);
    }
  }
  return total;
}

/** IPIs per request between two readings, or undefined when either is missing or nothing completed. */
export function wakeupsPerRequest(before, after, requests) {
  return before === undefined || after === undefined || requests <= 0 ? undefined : (after - before) / requests;
}
