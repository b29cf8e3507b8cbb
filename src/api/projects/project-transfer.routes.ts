/** Projects as files: download a project's flows as a ZIP, upload a project file (or such a ZIP) as a new project. */
import { z } from 'zod';
import { FlowRead, toFlowRead } from '../../../protocol/flow.schema.js';
import { ProjectFile } from '../../../protocol/project.schema.js';
import type { Services } from '../../services/services.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BadRequestError, NotFoundError } from '../../errors/index.js';
import { archiveTimestamp, isZip, parseJson, unzipJson, zipJson } from '../../services/flow-archive.js';
import { withoutSecrets } from '../../services/flow-data.js';
import { asFlowCreates, uploadedFile } from '../flows/uploaded-flows.js';
import { zipReply } from '../flows/zip-reply.js';
import { ProjectIdParams } from './project-crud.routes.js';

const TAGS = ['Projects'];

export function projectTransferRoutes({ projects, flows }: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/projects/download/:project_id',
      summary: "Download a project's flows (secrets left out) as a ZIP of <name>.json files",
      tags: TAGS,
      auth: 'user',
      params: ProjectIdParams,
      responses: {
        200: { description: 'ZIP archive', contentType: 'application/zip' },
        404: { description: 'Project not found, or no flows in it' },
      },
      async handler({ params, principal }) {
        const project = await projects.owned(principal!.userId, params.project_id);
        const contents = (await projects.flowsIn(project)).map((flow) => toFlowRead(withoutSecrets(flow)));
        if (contents.length === 0) throw new NotFoundError('No flows found in project');
        const zip = zipJson(contents.map((flow) => ({ name: flow.name, json: flow })));
        return zipReply(zip, `${archiveTimestamp()}_${project.name}_flows.zip`);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/projects/upload',
      summary: 'Create a project from {"folder_name","folder_description","flows"} or a ZIP of flow files',
      tags: TAGS,
      auth: 'user',
      bodyKind: 'multipart',
      responses: {
        201: { description: 'The created flows', schema: z.array(FlowRead) },
        400: { description: 'A malformed multipart body, or a file that is not a flow file' },
        413: { description: 'Past FLOWSVC_MAX_JSON_BODY_MB: a flow file is JSON, read into memory' },
      },
      async handler({ files, principal }) {
        const file = uploadedFile(files);
        const content = readProjectFile(file.data, file.filename);
        const inputs = asFlowCreates(content.flows);
        const project = await projects.create(principal!.userId, { name: content.folder_name, description: content.folder_description ?? '' });
        return Reply.json((await flows.createMany(principal!.userId, inputs, project.id)).map(toFlowRead), 201);
      },
    }),
  ];
}

/** A ZIP is named after the file (Langflow's rule); a JSON file must say its folder name and flows. */
function readProjectFile(bytes: Buffer, filename: string): ProjectFile {
  if (bytes.length === 0) throw new BadRequestError('The uploaded file is empty');
  if (isZip(bytes)) {
    const flows = unzipJson(bytes);
    if (flows.length === 0) throw new BadRequestError('No valid flow JSON files found in the ZIP');
    return { folder_name: filename.replace(/\.[^.]*$/, '') || 'Imported Project', folder_description: '', flows };
  }
  const parsed = ProjectFile.safeParse(parseJson(bytes));
  if (!parsed.success) {
    throw new BadRequestError("Invalid project data: expected a JSON object with 'folder_name' and 'flows' fields");
  }
  return parsed.data;
}
