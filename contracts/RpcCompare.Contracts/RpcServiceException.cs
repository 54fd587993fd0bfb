namespace RpcCompare.Contracts;

/// <summary>
/// A call refused by the service or by a binding's limits. Servers translate it into their
/// transport's fault and clients translate it back, so callers catch one type on every binding.
/// </summary>
public sealed class RpcServiceException : Exception
{
    public RpcServiceException(RpcErrorCode code, string message)
        : base(message)
    {
        Code = code;
    }

    public RpcServiceException()
        : this(RpcErrorCode.Internal, "The call failed.")
    {
    }

    public RpcServiceException(string message)
        : this(RpcErrorCode.Internal, message)
    {
    }

    public RpcServiceException(string message, Exception innerException)
        : base(message, innerException)
    {
        Code = RpcErrorCode.Internal;
    }

    public RpcErrorCode Code { get; }

    public override string ToString() => $"{Code}: {Message}";
}
