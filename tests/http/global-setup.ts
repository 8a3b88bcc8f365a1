import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { TestProject } from 'vitest/node'
import type { ServerKind, TestServer } from './support'

/**
 * Starts the production build once per database for the request-level tests
 * (tests/http): `tests/support/start-server.js`, the same server, demo data
 * and loopback stand-ins as the end-to-end suite, on PGlite and, with
 * TEST_DATABASE_URL, on a fresh database of that Postgres server. The tests
 * reach them over HTTP (`inject('servers')`). `npm test` builds first.
 */
const PORTS: Record<ServerKind, number> = { pglite: Number(process.env.HTTP_TEST_PORT ?? 3201), postgres: Number(process.env.HTTP_TEST_PORT ?? 3201) + 1 }

export default async function setup(project: TestProject) {
	const kinds: ServerKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']
	// `vitest list` collects the tests and runs none: the servers are named (a test per server), not started.
	if (process.argv[2] === 'list') {
		project.provide('servers', kinds.map((kind) => ({ kind, url: `http://127.0.0.1:${PORTS[kind]}`, mailbox: null })))
		return
	}
	if (!existsSync('build/server/index.js')) throw new Error('The request-level tests (tests/http) run against the build: run `npm run build` first.')
	const started: Array<{ child: ChildProcess; output: () => string }> = []
	const stop = async () => {
		await Promise.all(
			started.map(
				({ child }) =>
					new Promise<void>((resolve) => {
						if (child.exitCode !== null) return resolve()
						child.once('exit', () => resolve())
						child.kill('SIGTERM')
					}),
			),
		)
	}
	try {
		const servers: TestServer[] = await Promise.all(
			kinds.map(async (kind) => {
				const port = PORTS[kind]
				const child = spawn(process.execPath, ['tests/support/start-server.js', kind, String(port)], { stdio: ['ignore', 'pipe', 'pipe'] })
				let output = ''
				child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
				child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
				started.push({ child, output: () => output })
				const url = `http://127.0.0.1:${port}`
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

async function waitUntilServing(url: string, child: ChildProcess, output: () => string) {
	// Migrating a fresh database and loading the demo data: seconds, a minute on a loaded machine.
	const deadline = Date.now() + 120_000
	for (;;) {
		const ok = await fetch(`${url}/en`).then(
			(response) => response.ok,
			() => false,
		)
		if (ok) return
		if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the test server at ${url} did not start:\n${output()}`)
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
}
