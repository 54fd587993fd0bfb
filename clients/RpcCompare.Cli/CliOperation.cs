using RpcCompare.Client;

namespace RpcCompare.Cli;

/// <summary>One operation rpcc can call: its name as typed, what it does, and how to call it.</summary>
internal sealed record CliOperation(string Name, string Description, Func<RpcClientSession, OperationArguments, Task<object?>> InvokeAsync);
