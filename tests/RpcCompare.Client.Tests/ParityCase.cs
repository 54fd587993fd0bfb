using RpcCompare.Contracts;

namespace RpcCompare.Client.Tests;

/// <summary>One request, run on every binding; its outcome is reduced to a string so outcomes compare exactly.</summary>
public sealed record ParityCase(string Name, Func<IFileService, ICallShapeService, IPayloadService, Task<object?>> InvokeAsync)
{
    public override string ToString() => Name;
}
