// `npm test` runs this before the end-to-end suite: one line and exit 1 when
// there is no Chromium to drive, instead of a launch error per test.
import { findChromium, HOW_TO_GET_CHROMIUM } from '../tests/support/chromium.js'

const found = findChromium()
if (!found.path) {
	console.error(`End-to-end tests need Chromium: ${found.problem}; ${HOW_TO_GET_CHROMIUM}.`)
	process.exit(1)
}
