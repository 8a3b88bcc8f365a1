import type { ReactNode } from 'react'
import { PageTitle } from './page-title'

/** A simple page: translated title as heading and document title, then its content. */
export function StaticPage({ title, lead, children }: { title: string; lead?: string; children?: ReactNode }) {
	return (
		<article className="page">
			<PageTitle title={title} />
			<h1>{title}</h1>
			{lead ? <p className="page__lead">{lead}</p> : null}
			{children}
		</article>
	)
}
