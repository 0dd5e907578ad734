import { describe, expect, it } from "vitest";
import { createStreamRoster, type LocalStream, type StreamRoster } from "./stream-roster.ts";

/** Two processes' rosters joined by an in-memory channel (NOTIFY delivers to every listener, the sender too). */
function twoProcesses(cap: number) {
  let clock = 1_000;
  const processes: { roster: StreamRoster; streams: Map<number, LocalStream[]>; ended: string[] }[] = [];
  for (const origin of ["a", "b"]) {
    const streams = new Map<number, LocalStream[]>();
    const ended: string[] = [];
    const roster = createStreamRoster({
      origin,
      cap,
      rosterMs: 30_000,
      now: () => clock,
      send: (message) => queueMicrotask(() => processes.forEach((process) => process.roster.receive(message))),
      local: (user) => streams.get(user) ?? [],
      localUsers: () => streams.keys(),
    });
    processes.push({ roster, streams, ended });
  }
  const open = (index: number, user: number, id: string) => {
    const process = processes[index]!;
    const stream: LocalStream = {
      id,
      openedAt: clock++,
      end: () => {
        process.ended.push(id);
        process.streams.set(
          user,
          (process.streams.get(user) ?? []).filter((other) => other.id !== id),
        );
        process.roster.closed(user, id);
      },
    };
    process.streams.set(user, [...(process.streams.get(user) ?? []), stream]);
    process.roster.opened(user, stream);
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { processes, open, settle, advance: (ms: number) => (clock += ms) };
}

describe("the live stream cap across processes", () => {
  it("ends the oldest stream of a user wherever it is held once all processes together exceed the cap", async () => {
    const { processes, open, settle } = twoProcesses(3);
    open(0, 7, "a1");
    open(1, 7, "b1");
    open(0, 7, "a2");
    await settle();
    expect(processes[0]!.roster.count(7)).toBe(3);
    open(1, 7, "b2");
    await settle();
    // The oldest (a1, on process a) is ended by process a; nothing else is.
    expect(processes[0]!.ended).toEqual(["a1"]);
    expect(processes[1]!.ended).toEqual([]);
    await settle();
    expect(processes[0]!.roster.count(7)).toBe(3);
    expect(processes[1]!.roster.count(7)).toBe(3);
    // Another user's streams are counted apart.
    open(0, 8, "x1");
    await settle();
    expect(processes[1]!.roster.count(8)).toBe(1);
  });

  it("forgets a silent process's streams after three rounds, and learns them again from its list", async () => {
    const { processes, open, settle, advance } = twoProcesses(3);
    open(1, 7, "b1");
    open(1, 7, "b2");
    await settle();
    expect(processes[0]!.roster.count(7)).toBe(2);
    advance(100_000);
    processes[0]!.roster.repeat();
    await settle();
    expect(processes[0]!.roster.count(7)).toBe(0);
    processes[1]!.roster.repeat();
    await settle();
    expect(processes[0]!.roster.count(7)).toBe(2);
  });
});
