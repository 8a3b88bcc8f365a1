import { expect, test } from 'vitest'
import { tr } from '#tests/e2e/support/i18n'
import { describeEachServer, Visitor } from './support'

/** The build manifest open tabs poll for a newer deploy (docs/decisions/021); the offer itself is in tests/e2e/builds.spec.ts. */
describeEachServer('builds', (server) => {
	test('the build manifest names this build and is always revalidated', async () => {
		const response = await new Visitor(server).fetch('/builds/latest.json')
		expect(response.status).toBe(200)
		expect(response.headers.get('cache-control')).toBe('no-cache')
		const manifest = (await response.json()) as { id: unknown; time: string }
		expect(manifest.id).toEqual(expect.any(String))
		expect(Number.isNaN(Date.parse(manifest.time))).toBe(false)
	})

	test('the offer of a newer build is not in the served page: only a tab running the app can make it', async () => {
		const page = await new Visitor(server).page('/de')
		expect(page.html).not.toContain(tr('de', 'builds.new-version'))
	})
})
