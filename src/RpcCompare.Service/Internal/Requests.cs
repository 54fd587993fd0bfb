using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using RpcCompare.Contracts;

namespace RpcCompare.Service.Internal;

/// <summary>
/// A missing request is the caller's mistake, not the server's: over SOAP it is what a body without
/// the operation's request element, with it in another namespace, or with it nil reads as (toolkits
/// send that for an optional argument). Refused as InvalidArgument, which every binding carries as
/// the same refusal, instead of failing as an "internal error".
/// </summary>
internal static class Requests
{
    public static T Require<T>([NotNull] T? request, [CallerMemberName] string operation = "")
        where T : class =>
        request ?? throw new RpcServiceException(RpcErrorCode.InvalidArgument,
            $"{(operation.EndsWith("Async", StringComparison.Ordinal) ? operation[..^5] : operation)} got no request; it needs a {typeof(T).Name}.");
}
