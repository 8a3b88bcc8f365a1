import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

const BLOCKING = new Set(['serious', 'critical'])

/** The serious and critical violations of WCAG 2.1 A and AA (axe-core) on the page as it is now, one line each. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
	const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
	return results.violations
		.filter((v) => BLOCKING.has(v.impact ?? ''))
		.flatMap((v) => v.nodes.map((n) => `${page.url()} ${v.id} (${v.impact}): ${n.target.join(' ')} ${n.failureSummary?.split('\n').join(' ') ?? ''}`))
}
