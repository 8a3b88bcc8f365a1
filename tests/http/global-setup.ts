import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { TestProject } from 'vitest/node'
import { freePort } from '#tests/support/free-port'
import type { ServerKind, TestServer } from './support'

/**
 * Starts the production build once per database for the request-level tests
 * (tests/http): `tests/support/start-server.js`, the same server, demo data
 * and loopback stand-ins as the end-to-end suite, on PGlite and, with
 * TEST_DATABASE_URL, on a fresh database of that Postgres server. The tests
 * reach them over HTTP (`inject('servers')`). `npm test` builds first.
 */
export default async function setup(project: TestProject) {
	const kinds: ServerKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']
	// `vitest list` collects the tests and runs none: the servers are named (a test per server), not started.
	if (process.argv.slice(2).includes('list')) {
		project.provide('servers', kinds.map((kind) => ({ kind, url: 'http://127.0.0.1:0', mailbox: null })))
		return
	}
	if (!existsSync('build/server/index.js')) throw new Error('The request-level tests (tests/http) run against the build: run `npm run build` first.')
	const started: Array<{ child: ChildProcess; output: () => string }> = []
	const stop = async () => {
		await Promise.all(
			started.map(
				({ child }) =>
					new Promise<void>((resolve) => {
						if (child.exitCode !== null || child.signalCode !== null) return resolve()
						// The starter drops its database and folder on SIGTERM; one that hangs is killed.
						const kill = setTimeout(() => child.kill('SIGKILL'), 15_000)
						child.once('exit', () => {
							clearTimeout(kill)
							resolve()
						})
						child.kill('SIGTERM')
					}),
			),
		)
	}
	try {
		const servers: TestServer[] = await Promise.all(
			kinds.map(async (kind) => {
				// A free port; start-server.js also takes the ports 1000 and 2000 above it, and stops with an error if either is taken.
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
				started.push({ child, output: () => output })
				await waitUntilServing(url, child, () => output)
				return { kind, url, mailbox: kind === 'postgres' ? `http://127.0.0.1:${port + 1000}` : null }
			}),
		)
		project.provide('servers', servers)
	} catch (error) {
		await stop()
		throw error
	}
	return stop
}

function answers(url: string): Promise<boolean> {
	return fetch(`${url}/en`).then(
		(response) => response.ok,
		() => false,
	)
}

async function waitUntilServing(url: string, child: ChildProcess, output: () => string) {
	// Migrating a fresh database and loading the demo data: seconds, a minute on a loaded machine.
	const deadline = Date.now() + 120_000
	for (;;) {
		const exited = () => child.exitCode !== null || child.signalCode !== null
		if (await answers(url)) {
			// Ours, not a process that took the port meanwhile: the starter is still running.
			if (!exited()) return
		}
		if (exited() || Date.now() > deadline) throw new Error(`the test server at ${url} did not start:\n${output()}`)
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
}
