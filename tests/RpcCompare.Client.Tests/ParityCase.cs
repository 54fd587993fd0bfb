using RpcCompare.Contracts;

namespace RpcCompare.Client.Tests;

/// <summary>One request, run on every binding; its outcome is reduced to a string so outcomes compare exactly.</summary>
/// <param name="Name">What the case does; a name containing "refused" expects a refusal.</param>
/// <param name="InvokeAsync">The call.</param>
/// <param name="MayExceedQuota">
/// The payload is within the message limit as data but may not be once a framework encodes it
/// (2.5 million records are 10 MB as data, about 30 MB as protobuf and more as SOAP): a binding
/// may then refuse it with QuotaExceeded instead of matching the reference.
/// </param>
public sealed record ParityCase(string Name, Func<IFileService, ICallShapeService, IPayloadService, Task<object?>> InvokeAsync, bool MayExceedQuota = false)
{
    public override string ToString() => Name;
}
