/** Moving flows in and out: batch create, file upload, download as JSON or ZIP. */
import { z } from 'zod';
import { FolderIdQuery } from '../../../protocol/flow-query.schema.js';
import { FlowIds, FlowListCreate, FlowRead, toFlowRead } from '../../../protocol/flow.schema.js';
import { FlowReadWithUnrunnable } from '../../../protocol/unrunnable.schema.js';
import type { Services } from '../../services/services.js';
import { savedFlowAnswer } from './unrunnable-answer.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { archiveTimestamp, flowsInUpload, zipJson } from '../../services/flow-archive.js';
import { asFlowCreates, uploadedFile } from './uploaded-flows.js';
import { zipReply } from './zip-reply.js';

const TAGS = ['Flows'];

export function flowTransferRoutes({ flows, runner }: Services): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/flows/batch',
      summary: 'Create several flows',
      tags: TAGS,
      auth: 'user',
      body: FlowListCreate,
      responses: { 201: { description: 'Created, in input order, with the nodes that will not run here', schema: z.array(FlowReadWithUnrunnable) } },
      async handler({ body, principal }) {
        return Reply.json((await flows.createMany(principal!.userId, body.flows)).map((flow) => savedFlowAnswer(runner, flow)), 201);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/flows/upload',
      summary: 'Create flows from an uploaded file: one flow, {"flows": [...]}, or a ZIP of flow files',
      tags: TAGS,
      auth: 'user',
      bodyKind: 'multipart',
      query: FolderIdQuery,
      responses: {
        201: { description: 'Created, with the nodes that will not run here', schema: z.array(FlowReadWithUnrunnable) },
        400: { description: 'A malformed multipart body, or a file that is not a flow file' },
        413: { description: 'Past FLOWSVC_MAX_JSON_BODY_MB: a flow file is JSON, read into memory' },
      },
      async handler({ files, query, principal }) {
        const inputs = asFlowCreates(flowsInUpload(uploadedFile(files).data));
        return Reply.json((await flows.createMany(principal!.userId, inputs, query.folder_id)).map((flow) => savedFlowAnswer(runner, flow)), 201);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/flows/download',
      summary: 'Export flows without their secrets: one flow as JSON, several as a ZIP',
      tags: TAGS,
      auth: 'user',
      body: FlowIds,
      responses: {
        200: { description: 'The flow (one id) or a ZIP of <name>.json files', schema: FlowRead },
        404: { description: 'No flows found.' },
      },
      async handler({ body, principal }) {
        const exported = (await flows.exportable(principal!.userId, body)).map(toFlowRead);
        if (exported.length === 1) return exported[0];
        return zipReply(zipJson(exported.map((flow) => ({ name: flow.name, json: flow }))), `${archiveTimestamp()}_langflow_flows.zip`);
      },
    }),
  ];
}
