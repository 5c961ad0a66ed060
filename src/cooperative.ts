// Owns sharing this process's one thread between background work and interactive calls. Work that
// runs many steps in a row (a batch's rows, a long upload's checks) calls `turn()` before each step: it
// answers at once while the thread's current slice is young, and otherwise waits until the event loop
// has had a turn (its timers and sockets: other tenants' requests). A step's own work is not cut, so a
// slice lasts at most its budget plus one step. Steps woken together look again one by one (Node runs
// the promise jobs of one setImmediate callback before the next callback), so they too go a slice at a
// time.

/** How long background steps may hold the thread before the event loop gets a turn. */
const SLICE_MS = 8;

let sliceStart = performance.now();
let opening = false;

/** The next turn of the event loop; the first waiter's wake-up opens a new slice before the others wake. */
function nextTurn(): Promise<void> {
  if (!opening) {
    opening = true;
    setImmediate(() => {
      opening = false;
      sliceStart = performance.now();
    });
  }
  return new Promise((resolve) => setImmediate(resolve));
}

/** Waits, if background steps have held the thread for a slice, until the event loop has had its turn. */
export async function turn(): Promise<void> {
  while (performance.now() - sliceStart >= SLICE_MS) await nextTurn();
}
