/** /api/v1/files/profile_pictures (spec 4.6): the pictures a user may choose for their profile (ours, shipped). */
import { FileNameList, ProfilePictureParams } from '../../../protocol/flow-file.schema.js';
import { NotFoundError } from '../../errors/index.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { ProfilePictures } from '../../services/files/profile-pictures.js';

export function profilePicturesRoutes(pictures = new ProfilePictures()): Route[] {
  const tags = ['Files'];
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/files/profile_pictures/list',
      summary: 'List the profile pictures, as `<folder>/<name>`',
      tags,
      auth: 'user',
      responses: { 200: { description: 'The pictures', schema: FileNameList } },
      handler: () => ({ files: pictures.list() }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/files/profile_pictures/:folder_name/:file_name',
      summary: 'One profile picture (SVG)',
      tags,
      auth: 'user',
      params: ProfilePictureParams,
      responses: { 200: { description: 'The picture', contentType: 'image/svg+xml' }, 404: { description: 'No such picture' } },
      handler: ({ params }) => {
        const svg = pictures.get(params.folder_name, params.file_name);
        if (!svg) throw new NotFoundError('Profile picture not found');
        // Ours and unchanging while the process runs: a browser may keep it for a day.
        return Reply.bytes(svg, 'image/svg+xml', 200, { 'cache-control': 'public, max-age=86400' });
      },
    }),
  ];
}
