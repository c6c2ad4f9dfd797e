/**
 * The shapes of Gemini requests the relay reads (generateContent and streamGenerateContent,
 * embedContent and batchEmbedContents). Open-ended: anything else a client sends passes through.
 */
import { Type } from '@sinclair/typebox';

const Part = Type.Object({
  text: Type.Optional(Type.String()),
  inlineData: Type.Optional(Type.Object({ mimeType: Type.String(), data: Type.String() })),
  fileData: Type.Optional(Type.Object({ mimeType: Type.Optional(Type.String()), fileUri: Type.String() })),
  functionCall: Type.Optional(Type.Object({ name: Type.String(), args: Type.Optional(Type.Object({})) })),
  functionResponse: Type.Optional(Type.Object({ name: Type.String(), response: Type.Optional(Type.Object({})) })),
});

const Content = Type.Object({ role: Type.Optional(Type.String()), parts: Type.Array(Part) });

export const GEMINI_GENERATE = Type.Object({
  contents: Type.Array(Content),
  systemInstruction: Type.Optional(Content),
  system_instruction: Type.Optional(Content),
  tools: Type.Optional(
    Type.Array(
      Type.Object({
        functionDeclarations: Type.Optional(
          Type.Array(
            Type.Object({
              name: Type.String(),
              description: Type.Optional(Type.String()),
              parameters: Type.Optional(Type.Object({})),
              parametersJsonSchema: Type.Optional(Type.Object({})),
            }),
          ),
        ),
      }),
    ),
  ),
  toolConfig: Type.Optional(
    Type.Object({
      functionCallingConfig: Type.Optional(
        Type.Object({ mode: Type.Optional(Type.String()), allowedFunctionNames: Type.Optional(Type.Array(Type.String())) }),
      ),
    }),
  ),
  safetySettings: Type.Optional(Type.Array(Type.Object({}))),
  generationConfig: Type.Optional(
    Type.Object({
      maxOutputTokens: Type.Optional(Type.Integer({ minimum: 0 })),
      temperature: Type.Optional(Type.Number()),
      topP: Type.Optional(Type.Number()),
      topK: Type.Optional(Type.Number()),
      candidateCount: Type.Optional(Type.Integer({ minimum: 1 })),
      stopSequences: Type.Optional(Type.Array(Type.String())),
    }),
  ),
});

const EmbedRequest = Type.Object({ model: Type.Optional(Type.String()), content: Content });

export const GEMINI_EMBED = Type.Object({ content: Content, model: Type.Optional(Type.String()) });

export const GEMINI_BATCH_EMBED = Type.Object({ requests: Type.Array(EmbedRequest, { minItems: 1 }) });
