import { ReportButton, type ReportProps } from './report-dialog';

/** The report button of a server-rendered page (a show, a video, a gallery). */
export default function ReportButtonIsland(props: ReportProps) {
  return <ReportButton {...props} />;
}
