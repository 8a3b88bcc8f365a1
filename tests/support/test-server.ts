import { spawn } from 'node:child_process'
import { freePort } from './free-port'

export type ServerKind = 'pglite' | 'postgres'

export interface TestServerProcess {
	kind: ServerKind
	port: number
	url: string
	/** SIGTERM (the starter then drops its database or folder), SIGKILL if it has not exited 15 s later; resolves on exit. */
	stop(): Promise<void>
}

/**
 * The production build served by `tests/support/start-server.js` (demo data,
 * the loopback stand-ins) on a free port, resolved once it serves `/en`: for
 * the request-level tests' global setup and the benchmarks. `npm run build`
 * first. Refuses a port something else already answers on, and a server that
 * exits or does not serve within two minutes, with the end of its log.
 * `echoErrors` also passes the server's warnings and errors through (JSON lines
 * on its stdout, LOG_LEVEL=warn, and anything on its stderr): a benchmark's
 * reader sees them as they happen.
 */
export async function startTestServer(kind: ServerKind, { echoErrors = false } = {}): Promise<TestServerProcess> {
	// start-server.js also takes the ports 1000 and 2000 above this one, and stops with an error if either is taken.
	const port = await freePort()
	const url = `http://127.0.0.1:${port}`
	// Never test whatever else answers there.
	if (await answers(url)) throw new Error(`something already answers at ${url}`)
	const child = spawn(process.execPath, ['tests/support/start-server.js', kind, String(port)], { stdio: ['ignore', 'pipe', 'pipe'] })
	// The server's log, the last 64 KiB of it, for the error when it does not start.
	let output = ''
	const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-65_536))
	child.stdout!.on('data', keep)
	child.stderr!.on('data', keep)
	if (echoErrors) {
		child.stdout!.pipe(process.stderr)
		child.stderr!.pipe(process.stderr)
	}
	const exited = () => child.exitCode !== null || child.signalCode !== null
	const stop = () =>
		new Promise<void>((resolve) => {
			if (exited()) return resolve()
			const kill = setTimeout(() => child.kill('SIGKILL'), 15_000)
			child.once('exit', () => {
				clearTimeout(kill)
				resolve()
			})
			child.kill('SIGTERM')
		})
	// Migrating a fresh database and loading the demo data: seconds, a minute on a loaded machine.
	const deadline = Date.now() + 120_000
	for (;;) {
		// Ours, not a process that took the port meanwhile: the starter is still running.
		if ((await answers(url)) && !exited()) return { kind, port, url, stop }
		if (exited() || Date.now() > deadline) {
			await stop()
			throw new Error(`the test server at ${url} did not start:\n${output}`)
		}
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
}

function answers(url: string): Promise<boolean> {
	return fetch(`${url}/en`).then(
		(response) => response.ok,
		() => false,
	)
}
