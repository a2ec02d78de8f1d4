// The console's activity points (issue 26): the calls as the screens use them. No state is shared between screens
// (the editor's categories, an event's points and winners, the admin's lists are each read where they show), so
// nothing is kept here.
export { orgPointsApi as orgPoints } from '../api/org-points.ts'
