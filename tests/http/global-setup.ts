import { existsSync } from 'node:fs'
import type { TestProject } from 'vitest/node'
import { startTestServer, type ServerKind, type TestServerProcess } from '#tests/support/test-server'
import type { TestServer } from './support'

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
	const started = await Promise.allSettled(kinds.map((kind) => startTestServer(kind)))
	const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
	const stop = async () => void (await Promise.all(running.map((server) => server.stop())))
	const failed = started.find((result) => result.status === 'rejected')
	if (failed) {
		await stop()
		throw failed.reason
	}
	project.provide('servers', running.map(asTestServer))
	return stop
}

/** The SMTP catcher of a Postgres-backed server serves its mails 1000 ports above it (start-server.js). */
function asTestServer({ kind, url, port }: TestServerProcess): TestServer {
	return { kind, url, mailbox: kind === 'postgres' ? `http://127.0.0.1:${port + 1000}` : null }
}
