using System.Diagnostics;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Bindings.Telemetry;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Pipes.Server;

/// <summary>
/// The pipes binding's operation codes as the services and operations they call, named as every
/// other binding names them (the contracts' service names, WCF's operation names), so a dashboard
/// groups one operation across bindings. Hand-written, like the rest of this binding.
/// </summary>
internal static class PipeOperationTelemetry
{
    private static readonly ServedMethod?[] s_methods = Build();

    /// <summary>A call of the operation <paramref name="code"/> begins, in <paramref name="parent"/>'s trace if the request carried one; nothing for a code no operation has (the dispatcher refuses it).</summary>
    public static ServerCall Start(byte code, ActivityContext parent) => s_methods[code] is { } method ? RpcServerTelemetry.Start(method, parent) : default;

    private static ServedMethod?[] Build()
    {
        var methods = new ServedMethod?[256];
        void Add(OperationCode code, string service, string method) => methods[(byte)code] = new ServedMethod(BindingNames.Pipes, RpcSystems.Pipes, service, method);

        Add(OperationCode.Ping, ServiceNames.FileService, "Ping");
        Add(OperationCode.ReadDirectory, ServiceNames.FileService, "ReadDirectory");
        Add(OperationCode.WriteAt, ServiceNames.FileService, "WriteAt");
        Add(OperationCode.VoidCall, ServiceNames.CallShapeService, "VoidCall");
        Add(OperationCode.TakeInt, ServiceNames.CallShapeService, "TakeInt");
        Add(OperationCode.ReturnInt, ServiceNames.CallShapeService, "ReturnInt");
        Add(OperationCode.Increment, ServiceNames.CallShapeService, "Increment");
        Add(OperationCode.TakePoint, ServiceNames.CallShapeService, "TakePoint");
        Add(OperationCode.EchoBytes, ServiceNames.PayloadService, "EchoBytes");
        Add(OperationCode.SendBytes, ServiceNames.PayloadService, "SendBytes");
        Add(OperationCode.SendRecords, ServiceNames.PayloadService, "SendRecords");
        Add(OperationCode.SendString, ServiceNames.PayloadService, "SendString");
        Add(OperationCode.Subscribe, ServiceNames.PushService, "Subscribe");
        Add(OperationCode.Unsubscribe, ServiceNames.PushService, "Unsubscribe");
        Add(OperationCode.Publish, ServiceNames.PushService, "Publish");
        return methods;
    }
}
