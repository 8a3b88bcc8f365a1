/** A heading of a legal document, listed in its table of contents. */
export type TocEntry = { id: string; text: string }

/** What a legal page renders: serialisable, the HTML already made safe by the server's renderer. */
export type LegalPageData = {
	version: string
	/** The date it took effect, written out in the page's language. */
	updated: string
	updatedIso: string
	html: string
	toc: TocEntry[]
}
