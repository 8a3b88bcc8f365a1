// `npm test`: every test, phase by phase, then how long each phase took.
// The order puts the build before the unit phase because the request-level
// tests (tests/http, in the unit run) and everything after it use the build.
// .ci/run passes the install's duration (CI_INSTALL_SECONDS) so that the
// table covers the whole run. Stops at the first phase that fails.
import { spawnSync } from 'node:child_process'

const PHASES = [
	['typecheck+lint', 'npm run typecheck && npm run lint'],
	// supabase/schemas and supabase/migrations describe the same database (ADR 047); needs a Postgres server.
	[
		'schemas',
		process.env.TEST_DATABASE_URL || process.env.DATABASE_URL
			? 'npm run db:diff -- --check'
			: 'echo "db:diff needs a Postgres server (TEST_DATABASE_URL; .ci/run starts one): not checked"',
	],
	['build', 'npm run build'],
	['unit', 'npm run test:unit'],
	['image', 'npm run test:image'],
	['browser', 'npm run test:browser'],
]

const timings = []
if (process.env.CI_INSTALL_SECONDS) timings.push(['install', Number(process.env.CI_INSTALL_SECONDS), 'ok'])

let failed = null
for (const [name, command] of PHASES) {
	console.log(`\n==> ${name}: ${command}`)
	const started = process.hrtime.bigint()
	const { status, signal } = spawnSync(command, { shell: true, stdio: 'inherit' })
	const seconds = Number(process.hrtime.bigint() - started) / 1e9
	const ok = status === 0
	timings.push([name, seconds, ok ? 'ok' : `failed (${signal ?? `exit ${status}`})`])
	if (!ok) {
		failed = name
		break
	}
}

const total = timings.reduce((sum, [, seconds]) => sum + seconds, 0)
console.log('\n==> phase timings')
for (const [name, seconds, outcome] of timings) console.log(`${name.padEnd(16)}${format(seconds).padStart(8)}  ${outcome}`)
console.log(`${'total'.padEnd(16)}${format(total).padStart(8)}`)
if (failed) {
	console.error(`\nnpm test: the ${failed} phase failed.`)
	process.exit(1)
}

function format(seconds) {
	const whole = Math.round(seconds)
	const m = Math.floor(whole / 60)
	const s = whole % 60
	return m > 0 ? `${m}m ${String(s).padStart(2, '0')}s` : `${s}s`
}
