import { defineConfig, type Project } from '@playwright/test'
import { findChromium } from './tests/support/chromium.js'
import { DECIDED_STORAGE_STATE } from './tests/e2e/support/consent'

/**
 * End-to-end tests run against the production build (`npm run build` first)
 * in Chromium (CHROMIUM_PATH, else Debian's, else Playwright's own:
 * tests/support/chromium.js). Every journey runs twice: with JavaScript on and off.
 * With TEST_DATABASE_URL set, the whole matrix runs again against an app
 * backed by that Postgres server (a fresh database), next to the one on
 * embedded PGlite.
 */
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
]

const servers = [{ name: 'pglite', port: Number(process.env.E2E_PORT ?? 3101) }]
if (process.env.TEST_DATABASE_URL) servers.push({ name: 'postgres', port: servers[0]!.port + 1 })

/** Specs about the rendered page alone, not its data: run once, on PGlite with JavaScript. */
const PAGE_ONLY = /(a11y|bundle|layout-shift|screenshots|theme)\.spec\.ts$/

/** Specs that start server processes of their own on the Postgres server: run once, in the postgres project. */
const POSTGRES_ONLY = /dares-two-servers\.spec\.ts$/

/** The phone-sized projects run the specs about the small-screen layout only. */
const PHONE = { viewport: { width: 390, height: 844 }, testMatch: /header\.spec\.ts$/ }

const projects: Project[] = servers.flatMap((server) =>
	[false, true].flatMap((phone) =>
		[true, false].map((javaScriptEnabled) => ({
			name: `${server.name}${phone ? '-phone' : ''}-${javaScriptEnabled ? 'js' : 'nojs'}`,
			...(phone ? { testMatch: PHONE.testMatch } : {}),
			// Tests about one mode only are tagged @js-only or @nojs-only and run only there.
			grepInvert: javaScriptEnabled ? /@nojs-only/ : /@js-only/,
			...(phone
				? {}
				: {
						testIgnore: [
							...(server.name !== 'pglite' || !javaScriptEnabled ? [PAGE_ONLY] : []),
							...(server.name !== 'postgres' || !javaScriptEnabled ? [POSTGRES_ONLY] : []),
						],
					}),
			use: {
				browserName: 'chromium' as const,
				baseURL: `http://127.0.0.1:${server.port}`,
				javaScriptEnabled,
				locale: 'en-US',
				...(phone ? { viewport: PHONE.viewport, isMobile: true, hasTouch: true } : {}),
				launchOptions: {
					// undefined: Playwright's default, which reports how to install it.
					executablePath: findChromium().path,
					args: CHROMIUM_ARGS,
				},
			},
		})),
	),
)

export default defineConfig({
	testDir: './tests/e2e',
	testMatch: '**/*.spec.ts',
	fullyParallel: true,
	forbidOnly: !!process.env.CI,
	retries: 0,
	workers: 2,
	reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
	// Two cores run two browsers, two servers and their databases at once.
	timeout: 60_000,
	expect: { timeout: 10_000 },
	// The cookie choice is made (tests/e2e/support/consent.ts); consent.spec.ts starts without it.
	use: { trace: 'retain-on-failure', storageState: DECIDED_STORAGE_STATE },
	projects,
	webServer: servers.map((server) => ({
		command: `node tests/e2e/support/start-server.js ${server.name} ${server.port}`,
		url: `http://127.0.0.1:${server.port}/en`,
		reuseExistingServer: false,
		timeout: 120_000,
		stdout: 'pipe' as const,
		stderr: 'pipe' as const,
	})),
})
