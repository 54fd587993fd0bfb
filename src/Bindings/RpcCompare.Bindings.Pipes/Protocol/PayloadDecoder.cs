namespace RpcCompare.Bindings.Pipes.Protocol;

/// <summary>Decodes one message from a frame body; a delegate so client and server share <see cref="MessageCodec"/>.</summary>
internal delegate T PayloadDecoder<out T>(ref PayloadReader reader);

/// <summary>Encodes one message into a frame body.</summary>
internal delegate void PayloadEncoder<in T>(FrameBuffer buffer, T value);
