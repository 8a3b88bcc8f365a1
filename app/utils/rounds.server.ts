/**
 * A background job that runs in rounds beside the requests: one round at
 * once, then one every `intervalMs`, never two at a time (a tick while a
 * round runs waits for that round). A round that fails is logged with the
 * job's name and the next one runs as planned. `stop()` aborts the signal the
 * round gets (it ends at its next safe point) and waits for it: the server
 * stops its jobs on drain, before the database closes (app/boot.server.ts).
 * The timer does not keep the process alive.
 */
export function startRounds(
	name: string,
	round: (signal: AbortSignal) => Promise<unknown>,
	{ intervalMs, log }: { intervalMs: number; log: (line: string) => void },
): { tick(): Promise<void>; stop(): Promise<void> } {
	const stopping = new AbortController()
	let current: Promise<void> | null = null
	const tick = (): Promise<void> => {
		if (stopping.signal.aborted) return Promise.resolve()
		current ??= round(stopping.signal)
			.then(
				() => undefined,
				(error: unknown) => log(`${name}: ${error instanceof Error ? error.message : String(error)}`),
			)
			.finally(() => {
				current = null
			})
		return current
	}
	const timer = setInterval(() => void tick(), intervalMs)
	timer.unref()
	void tick()
	return {
		tick,
		stop: async () => {
			stopping.abort()
			clearInterval(timer)
			await current
		},
	}
}
