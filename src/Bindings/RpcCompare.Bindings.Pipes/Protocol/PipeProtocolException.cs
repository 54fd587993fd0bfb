namespace RpcCompare.Bindings.Pipes.Protocol;

/// <summary>A frame body that does not decode: answered with an error, the connection stays usable.</summary>
internal sealed class PipeProtocolException : Exception
{
    public PipeProtocolException(string message)
        : base(message)
    {
    }
}
