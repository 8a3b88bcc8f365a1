import MarkdownIt from 'markdown-it'
import type { TocEntry } from './types'

/**
 * The legal texts are Markdown that the operator edits. They are rendered on
 * the server with markdown-it and `html: false`: raw HTML in a document is
 * shown as text, never passed through, and markdown-it's link check refuses
 * `javascript:`, `vbscript:`, `file:` and non-image `data:` URLs. So an edit
 * can change the wording and the structure, not the page's code
 * (docs/decisions/021-legal-documents-metadata-and-new-builds.md).
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false })

/** A heading's anchor: its words in lower case joined by hyphens, letters of every script kept. */
export function slugify(text: string): string {
	return (
		text
			.normalize('NFC')
			.toLocaleLowerCase('en')
			.replace(/[^\p{L}\p{N}]+/gu, '-')
			.replace(/^-+|-+$/g, '') || 'section'
	)
}

/**
 * Renders a document's body: every heading gets a stable id (so sections can
 * be linked and listed), and the second-level headings make the table of
 * contents.
 */
export function renderMarkdown(source: string): { html: string; toc: TocEntry[] } {
	const env = {}
	const tokens = markdown.parse(source, env)
	const toc: TocEntry[] = []
	const used = new Map<string, number>()
	tokens.forEach((token, index) => {
		if (token.type !== 'heading_open') return
		const text = tokens[index + 1]?.children?.map((child) => child.content).join('') ?? ''
		const base = slugify(text)
		const seen = used.get(base) ?? 0
		used.set(base, seen + 1)
		const id = seen ? `${base}-${seen + 1}` : base
		token.attrSet('id', id)
		if (token.tag === 'h2') toc.push({ id, text })
	})
	// External links leave the site in a new tab without handing it our page.
	for (const token of tokens) {
		for (const child of token.children ?? []) {
			if (child.type !== 'link_open') continue
			const href = String(child.attrGet('href') ?? '')
			if (/^https?:\/\//i.test(href)) {
				child.attrSet('target', '_blank')
				child.attrSet('rel', 'noopener noreferrer')
			}
		}
	}
	return { html: markdown.renderer.render(tokens, markdown.options, env), toc }
}
