import type { ReactNode } from 'react'
import { useTranslation } from '#app/i18n/translation'
import type { LegalPageData } from '#app/modules/legal/types'
import { PageTitle } from './page-title'

/**
 * A legal document (terms, privacy, imprint, creator agreement): its title,
 * the version and date users accept it by, a table of contents when it is
 * long, then the text. The HTML comes from the server's Markdown renderer,
 * which passes no raw HTML through (docs/decisions/021-legal-documents-metadata-and-new-builds.md).
 * `children` come before the text (the imprint's operator details), `after`
 * follows it (the creator agreement's accept and decline). Its stylesheet,
 * legal.css, is named by the routes that show it (app/styles/stylesheets.tsx).
 */
export function LegalDocument({
	title,
	description,
	document,
	children,
	after,
}: {
	title: string
	description?: string
	document: LegalPageData
	children?: ReactNode
	after?: ReactNode
}) {
	const { t } = useTranslation()
	return (
		<article className="page legal">
			<PageTitle title={title} description={description} />
			<header className="legal__header">
				<h1>{title}</h1>
				<p className="legal__version">
					{t('legal.version', { version: document.version })}
					<span aria-hidden="true"> · </span>
					<time dateTime={document.updatedIso}>{t('legal.updated', { date: document.updated })}</time>
				</p>
			</header>
			{children}
			{document.toc.length >= 6 ? (
				<nav className="legal__toc" aria-labelledby="legal-toc">
					<h2 id="legal-toc">{t('legal.contents')}</h2>
					<ol>
						{document.toc.map((entry) => (
							<li key={entry.id}>
								<a href={`#${entry.id}`}>{entry.text}</a>
							</li>
						))}
					</ol>
				</nav>
			) : null}
			<div className="legal__body" dangerouslySetInnerHTML={{ __html: document.html }} />
			{after}
		</article>
	)
}
