import { useTranslation } from 'react-i18next'
import { StaticPage } from '#app/components/static-page'

export default function PrivacyPage() {
	const { t } = useTranslation()
	return <StaticPage title={t('pages.privacy.title')} lead={t('pages.privacy.lead')} />
}
