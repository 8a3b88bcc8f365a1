import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { ENV_VARIABLES } from '#app/env.server'

test("the README's configuration table lists exactly the variables the app reads", () => {
	const readme = readFileSync('README.md', 'utf8')
	const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Languages'))
	const documented = [...section.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1])
	expect(documented.sort()).toEqual([...ENV_VARIABLES].sort())
})
