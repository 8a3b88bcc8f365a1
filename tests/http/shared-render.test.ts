import { expect, test, vi } from 'vitest'
import { describeEachServer, type TestServer } from './support'

/**
 * A visitor's home and legal pages are rendered once and served to the next
 * visitors for SHARED_PAGE_MAX_AGE_MS (app/modules/shared-pages/shared-render.server.ts; the
 * session page's sharing, outdated by changes, is in
 * tests/e2e/dares-two-servers.spec.ts). Plain requests without a cookie jar:
 * each is a new visitor.
 */
async function visit(server: TestServer, path: string, cookie?: string) {
	const response = await fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {} })
	const html = await response.text()
	const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
	return { status: response.status, age: response.headers.get('age'), nonce, nonces: new Set([...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1])), html }
}

describeEachServer('shared renders', (server) => {
	test('a visitor’s home and legal pages are rendered once and shared, each response with its own nonce; with other cookies they are rendered anew', async () => {
		for (const path of ['/en', '/de/terms', '/tr/privacy']) {
			// The first visit may render it; a visit within the next second gets that render (polled: a slow render is not kept).
			let shared = await visit(server, path)
			await vi.waitFor(
				async () => {
					shared = await visit(server, path)
					if (shared.age === null) throw new Error(`${path} not shared yet`)
				},
				{ timeout: 10_000, interval: 50 },
			)
			// Any other cookie: rendered for that request, and the same page but for the nonce.
			const own = await visit(server, path, 'something_else=1')
			expect([shared.status, own.status]).toEqual([200, 200])
			expect(own.age, `${path} with a cookie the server may read is rendered for it`).toBeNull()
			for (const page of [shared, own]) {
				expect(page.nonce).toBeTruthy()
				expect([...page.nonces], `${path}: every nonce in the page is the one of its own CSP header`).toEqual([page.nonce])
			}
			expect(shared.nonce).not.toBe(own.nonce)
			// Home's live totals may move between the two requests (other tests run beside this one); a legal page is the same.
			if (path !== '/en') expect(shared.html.replaceAll(shared.nonce!, 'NONCE')).toBe(own.html.replaceAll(own.nonce!, 'NONCE'))
		}
		// A search on home is not shared.
		await visit(server, '/en?q=mia')
		expect((await visit(server, '/en?q=mia')).age).toBeNull()
	})
})
