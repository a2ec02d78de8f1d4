// The console's activity points (issue 26): the calls as the screens use them. No state is shared between screens
// (the editor reads the college's categories where it shows them), so nothing is kept here.
export { orgPointsApi as orgPoints } from '../api/org-points.ts'
