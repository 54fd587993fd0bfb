namespace RpcCompare.Bindings.Fast.Protocol;

/// <summary>Bytes that are not the fast binding's protocol: the connection that sent them is closed.</summary>
internal sealed class FastProtocolException(string message) : Exception(message);
