namespace RpcCompare.Contracts.Push;

/// <summary>Limits every push binding enforces the same way.</summary>
public static class PushLimits
{
    /// <summary>Longest topic name, in characters; a longer one is refused with <see cref="RpcErrorCode.InvalidArgument"/>.</summary>
    public const int MaxTopicLength = 256;
}
